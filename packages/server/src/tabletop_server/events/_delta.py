"""Deltas between JSON documents: what an event stream sends instead of the whole view.

A delta turns one JSON document (the *base*) into another. It is generic (no game is special)
and compact: object members are named by their position among the base object's keys sorted by
UTF-16 code units (what JavaScript's default ``sort`` does), not by their names, and a list of
same-shaped objects (a seat's legal actions, say) is sent as one template plus the leaves that
vary. The format (also in ``packages/server/API.md``) is one *entry* for the whole document; an
entry says what becomes of one value:

- a string, number, boolean or ``null``: the value becomes that scalar;
- ``[v]``: the value becomes ``v`` (any JSON);
- ``[template, columns, rows]``: the value becomes a list with one item per row, each a copy of
  ``template`` with the leaf at ``columns[i]`` (a path of keys and indices) set to ``row[i]``;
- ``[]``: the object member is removed;
- ``[k1, e1, k2, e2, ...]`` (an even number of items, at least two): the value is an object or a
  list and changes inside. In an object, an integer ``k`` is the position of an existing member
  among the base's keys (sorted) and ``e`` its entry; a string ``k`` is the name of a new member
  and ``e`` its value entry. In a list, an integer ``k`` is an index (the list keeps its length);
  ``"~"`` is followed by a list of splices ``[start, count]`` or ``[start, count, items]``
  (``items`` a value entry whose value is a list): ``count`` items from ``start`` (base indices,
  ascending, not overlapping) are replaced by the items. Index entries apply first, then splices.

A delta never carries anything that is not in the document it produces, so a stream that diffs a
seat's views never reveals what that seat's own view would not.
"""

from __future__ import annotations

from difflib import SequenceMatcher
from typing import TypeGuard

import orjson
from pydantic import JsonValue

__all__ = ["DeltaError", "apply_delta", "make_delta"]

_SORTED = orjson.OPT_SORT_KEYS
_MAX_MATCHED = 64  # lists up to this many items (after trimming) are matched item by item

JsonObject = dict[str, JsonValue]


class DeltaError(Exception):
    """A delta does not apply to the document it was given (a client should resynchronise).

    Attributes:
        code: ``delta-does-not-apply``.
    """

    code = "delta-does-not-apply"


def _utf16(key: str) -> bytes:
    return key.encode("utf-16-be", "surrogatepass")


def _order(value: JsonObject) -> list[str]:
    if all(key.isascii() for key in value):  # code points and UTF-16 code units agree
        return sorted(value)
    return sorted(value, key=_utf16)


def _same(a: JsonValue, b: JsonValue) -> bool:
    if a is b:
        return True
    if type(a) is not type(b) or a != b:
        return False
    if isinstance(a, dict | list | float):  # == says 1 == True == 1.0 and 0.0 == -0.0; JSON does not
        return orjson.dumps(a, option=_SORTED) == orjson.dumps(b, option=_SORTED)
    return True


def _size(value: JsonValue) -> int:
    return len(orjson.dumps(value))


# -- making ---------------------------------------------------------------------------------------


def make_delta(before: JsonValue, after: JsonValue) -> JsonValue:
    """The delta that turns ``before`` into ``after``.

    Args:
        before: The base document.
        after: The document the delta produces.

    Returns:
        A JSON value: the entry for the whole document (``[after]`` when nothing is shorter).
    """
    if _same(before, after):
        return [after]
    return _entry(before, after)


def _entry(before: JsonValue, after: JsonValue) -> JsonValue:
    if isinstance(before, dict) and isinstance(after, dict) and before and after:
        nested: JsonValue = _object_delta(before, after)
    elif isinstance(before, list) and isinstance(after, list) and before and after:
        nested = _list_delta(before, after)
    else:
        return _value(after)
    if not nested:
        return _value(after)
    size = _size(nested)
    if size <= 8 or size < _size(after) // 3:  # far shorter than the value, packed or not
        return nested
    replace = _value(after)
    return nested if size < _size(replace) else replace


def _object_delta(before: JsonObject, after: JsonObject) -> list[JsonValue]:
    delta: list[JsonValue] = []
    for position, key in enumerate(_order(before)):
        if key not in after:
            delta += [position, []]
            continue
        old, new = before[key], after[key]
        if not _same(old, new):
            delta += [position, _entry(old, new)]
    for key, value in after.items():
        if key not in before:
            delta += [key, _value(value)]
    return delta


def _list_delta(before: list[JsonValue], after: list[JsonValue]) -> list[JsonValue]:
    shared = min(len(before), len(after))
    by_index: list[JsonValue] = []
    for index in range(shared):
        if not _same(before[index], after[index]):
            by_index += [index, _entry(before[index], after[index])]
    if len(before) == len(after):
        return by_index
    tail = _splice(shared, len(before) - shared, after[shared:])
    by_index += ["~", [tail]]
    matched = _matched(before, after)
    return matched if _size(matched) < _size(by_index) else by_index


def _matched(before: list[JsonValue], after: list[JsonValue]) -> list[JsonValue]:
    """Splices that keep the items both lists share (an item inserted or removed in the middle)."""
    start = 0
    limit = min(len(before), len(after))
    while start < limit and _same(before[start], after[start]):
        start += 1
    end = 0
    while end < limit - start and _same(before[-1 - end], after[-1 - end]):
        end += 1
    old_middle = before[start : len(before) - end]
    new_middle = after[start : len(after) - end]
    splices: list[JsonValue] = []
    if old_middle and new_middle and max(len(old_middle), len(new_middle)) <= _MAX_MATCHED:
        old_keys = [orjson.dumps(item, option=_SORTED) for item in old_middle]
        new_keys = [orjson.dumps(item, option=_SORTED) for item in new_middle]
        matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "equal":
                splices.append(_splice(start + i1, i2 - i1, new_middle[j1:j2]))
    else:
        splices.append(_splice(start, len(old_middle), new_middle))
    return ["~", splices]


def _splice(start: int, count: int, items: list[JsonValue]) -> JsonValue:
    return [start, count, _value(items)] if items else [start, count]


def _value(value: JsonValue) -> JsonValue:
    if isinstance(value, dict):
        return [value]
    if isinstance(value, list):
        packed = _packed(value)
        if packed is not None and _size(packed) < _size(value) + 2:
            return packed
        return [value]
    return value


def _leaves(
    value: JsonValue, path: tuple[str | int, ...], into: list[tuple[tuple[str | int, ...], JsonValue]]
) -> None:
    if isinstance(value, dict) and value:
        for key, item in value.items():
            _leaves(item, (*path, key), into)
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            _leaves(item, (*path, index), into)
    else:
        into.append((path, value))


def _packed(items: list[JsonValue]) -> list[JsonValue] | None:
    if len(items) < 2 or not all(isinstance(item, dict) for item in items):
        return None
    shape: list[tuple[str | int, ...]] | None = None
    rows: list[list[JsonValue]] = []
    first_item = items[0]
    assert isinstance(first_item, dict)
    keys = list(first_item)
    flat = [item for item in items if isinstance(item, dict) and list(item) == keys]
    if len(flat) == len(items) and not any(
        isinstance(leaf, dict | list) for item in flat for leaf in item.values()
    ):  # objects of scalars with the same keys (cards, say): no need to walk them
        shape = [(key,) for key in keys]
        rows = [list(item.values()) for item in flat]
    for item in items if shape is None else ():
        leaves: list[tuple[tuple[str | int, ...], JsonValue]] = []
        _leaves(item, (), leaves)
        paths = [path for path, _ in leaves]
        if shape is None:
            shape = paths
        elif paths != shape:
            return None
        rows.append([leaf for _, leaf in leaves])
    assert shape is not None
    first = rows[0]
    columns = [c for c in range(len(shape)) if any(not _same(row[c], first[c]) for row in rows)]
    return [
        items[0],
        [list(shape[c]) for c in columns],
        [[row[c] for c in columns] for row in rows],
    ]


# -- applying -------------------------------------------------------------------------------------


def apply_delta(before: JsonValue, delta: JsonValue) -> JsonValue:
    """The document ``delta`` makes of ``before`` (``before`` itself is not changed; unchanged
    parts are shared).

    Args:
        before: The base document.
        delta: A delta made by :func:`make_delta` against the same base.

    Returns:
        The new document.

    Raises:
        DeltaError: The delta is malformed or does not fit ``before``.
    """
    return _apply(before, delta)


def _fail(message: str) -> DeltaError:
    return DeltaError(f"the delta does not apply: {message}")


def _apply(before: JsonValue, entry: JsonValue) -> JsonValue:
    if not isinstance(entry, list):
        return entry
    if len(entry) == 1:
        return entry[0]
    if len(entry) == 3:
        return _unpack(entry[0], entry[1], entry[2])
    if not entry or len(entry) % 2:
        raise _fail(f"an entry of {len(entry)} items")
    if isinstance(before, dict):
        return _apply_object(before, entry)
    if isinstance(before, list):
        return _apply_list(before, entry)
    raise _fail("changes inside a scalar")


def _value_entry(entry: JsonValue) -> JsonValue:
    if isinstance(entry, list) and len(entry) not in (1, 3):
        raise _fail("a new value that is not a value entry")
    return _apply(None, entry)


def _is_path(value: JsonValue) -> TypeGuard[list[str | int]]:
    return isinstance(value, list) and all(
        isinstance(step, str | int) and not isinstance(step, bool) for step in value
    )


def _unpack(template: JsonValue, columns: JsonValue, rows: JsonValue) -> list[JsonValue]:
    if not isinstance(columns, list) or not isinstance(rows, list):
        raise _fail("a packed list without columns and rows")
    paths: list[list[str | int]] = []
    for column in columns:
        if not _is_path(column):
            raise _fail("a packed column that is not a path")
        paths.append(column)
    items: list[JsonValue] = []
    for row in rows:
        if not isinstance(row, list) or len(row) != len(paths):
            raise _fail("a packed row of the wrong length")
        item = template
        for path, leaf in zip(paths, row, strict=True):
            item = _set_in(item, path, 0, leaf)
        items.append(item)
    return items


def _set_in(value: JsonValue, path: list[str | int], depth: int, leaf: JsonValue) -> JsonValue:
    if depth == len(path):
        return leaf
    step = path[depth]
    if isinstance(value, dict) and isinstance(step, str) and step in value:
        copy = dict(value)
        copy[step] = _set_in(value[step], path, depth + 1, leaf)
        return copy
    if isinstance(value, list) and type(step) is int and 0 <= step < len(value):
        items = list(value)
        items[step] = _set_in(value[step], path, depth + 1, leaf)
        return items
    raise _fail("a packed column outside the template")


def _position(key: JsonValue, size: int) -> int:
    if type(key) is not int or not 0 <= key < size:
        raise _fail(f"{key!r} is not a position below {size}")
    return key


def _apply_object(before: JsonObject, delta: list[JsonValue]) -> JsonObject:
    order = _order(before)
    after = dict(before)
    for key, entry in zip(delta[::2], delta[1::2], strict=True):
        if isinstance(key, str):
            if key in before:
                raise _fail(f"the new member {key!r} exists")
            after[key] = _value_entry(entry)
            continue
        name = order[_position(key, len(order))]
        if entry == [] and isinstance(entry, list):
            del after[name]
        else:
            after[name] = _apply(before[name], entry)
    return after


def _apply_list(before: list[JsonValue], delta: list[JsonValue]) -> list[JsonValue]:
    after = list(before)
    splices: JsonValue = None
    for key, entry in zip(delta[::2], delta[1::2], strict=True):
        if key == "~":
            splices = entry
            continue
        index = _position(key, len(before))
        if isinstance(entry, list) and not entry:
            raise _fail("a list item cannot be removed but by a splice")
        after[index] = _apply(before[index], entry)
    if splices is None:
        return after
    if not isinstance(splices, list):
        raise _fail("'~' is not followed by a list of splices")
    bound = 0
    checked: list[tuple[int, int, list[JsonValue]]] = []
    for splice in splices:
        if not isinstance(splice, list) or len(splice) not in (2, 3):
            raise _fail("a splice is [start, count] or [start, count, items]")
        start, count = splice[0], splice[1]
        if type(start) is not int or type(count) is not int or start < bound or count < 0:
            raise _fail("splices must be ascending and not overlap")
        if start + count > len(before):
            raise _fail("a splice past the end of the list")
        items = _value_entry(splice[2]) if len(splice) == 3 else []
        if not isinstance(items, list):
            raise _fail("splice items must be a list")
        checked.append((start, count, items))
        bound = start + count
    for start, count, items in reversed(checked):
        after[start : start + count] = items
    return after
