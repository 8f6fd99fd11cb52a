"""A leak checker: does a serialized view contain a value its perspective may not see?"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, cast

from pydantic import BaseModel
from pydantic_core import from_json, to_json

from tabletop._action import GameAction
from tabletop._machine import AnyState
from tabletop._visibility import CustomVisibility, Perspective, Spectator, Viewer
from tabletop.views._derive import DictNode, ListNode, ModelNode, ModelPlan, Node, Op, UnionNode
from tabletop.views._projection import action_plan, state_plan

__all__ = ["LeakChecker", "find_leaks"]

_DELIMITERS = bytes.maketrans(b",[]{}", b"\x01\x01\x01\x01\x01")
_NOT_VALUES = frozenset({b"", b"null"})
_INNERMOST = re.compile(rb"\{([^{}]*)\}")
_KEEP, _OWNER, _COUNT, _COUNT_OWNER, _ORDER_OWNER, _CUSTOM = (
    Op.KEEP,
    Op.OWNER,
    Op.COUNT,
    Op.COUNT_OWNER,
    Op.ORDER_OWNER,
    Op.CUSTOM,
)


def find_leaks(
    subject: AnyState | GameAction, view: BaseModel | str | bytes, perspective: Perspective
) -> list[str]:
    """Report every value hidden from ``perspective`` that shows in ``view`` anyway.

    The hidden values are collected from ``subject`` (a state or an action) by its declarations:
    host-only fields (``prng``'s seed and draw count among them), other players' owner-only
    values, count-only and order-only contents, and what custom policies hide from the
    perspective. A hidden value leaks if it occurs in the view more often than in the parts of
    ``subject`` the perspective may see (plus the counts the view adds), so a value that is also
    visible publicly is not reported while it shows no more often than that. Scalars are compared
    as JSON tokens (object keys are not values) and models without nested models (a card, a bid)
    as their compact JSON, wherever they occur: a hidden value copied into a public field or a
    message is found too. Nulls are never reported (they are what hiding leaves).

    To check several views of one subject (every player's and a spectator's), a
    :class:`LeakChecker` serializes the subject once for all of them.

    Args:
        subject: The state (or action) the view was made from.
        view: The view as sent (JSON text or bytes) or as a model.
        perspective: Whose view it is: a player id or ``SPECTATOR``.

    Returns:
        One line per leaked value (the hidden field's path, the value and the counts); empty
        when nothing leaks.
    """
    return LeakChecker(subject).find(view, perspective)


class LeakChecker:
    """:func:`find_leaks` for several views of one state or action: the subject is serialized once.

    Make it after the subject's last change and check each perspective's view with :meth:`find`.

    Example:
        ``checker = LeakChecker(state)``, then for each ``perspective``:
        ``assert checker.find(project(state, perspective), perspective) == []``
    """

    def __init__(self, subject: AnyState | GameAction, *, subject_json: bytes | None = None) -> None:
        """Check views of ``subject``.

        Args:
            subject: The state or action the views are made from.
            subject_json: The subject's compact JSON (``model_dump_json``'s bytes), if the caller
                has it already; made on the first check otherwise.
        """
        self.subject = subject
        self._data: Any = None
        self._text: _Text | None = None if subject_json is None else _Text(subject_json)
        self._region_texts: dict[int, bytes] = {}
        """The JSON of each hidden region's value (a part of ``_data``, kept alive by it), by id."""

    def find(self, view: BaseModel | str | bytes, perspective: Perspective) -> list[str]:
        """The leaks of ``perspective``'s ``view`` of the subject, as :func:`find_leaks` reports them."""
        subject = self.subject
        if isinstance(subject, GameAction):
            plan = action_plan(type(subject))
            if plan is None:
                return []
        else:
            plan = state_plan(type(subject), spectator=isinstance(perspective, Spectator))
        state = self._text
        if state is None:
            state = self._text = _Text(subject.model_dump_json().encode())
        if self._data is None:
            self._data = from_json(state.data)  # only ever read: shared by every view's check
        regions: list[tuple[str, object]] = []
        counts: list[int] = []
        _collect_model(plan, subject, self._data, _Walk(perspective, subject, regions, counts), None, "")
        if not regions:
            return []
        # A model's own compact JSON is what dumping it and re-serializing the dump gives.
        shown = _Text(
            view.__pydantic_serializer__.to_json(view)
            if isinstance(view, BaseModel)
            else to_json(from_json(view))
        )
        known = self._region_texts
        texts = []
        for path, value in regions:  # a region's value is the same object in every view's check
            text = known.get(id(value))
            if text is None:
                text = known[id(value)] = to_json(value)
            texts.append((path, text))
        hidden = _Text(b",".join([text for _, text in texts]))  # "," separates tokens and objects alike
        added = Counter([str(count).encode() for count in counts])
        return _scalar_leaks(texts, hidden, shown, state, added) + _object_leaks(texts, hidden, shown, state)


class _Text:
    """One compact JSON text, and its pieces, each made once when first needed.

    Every structural character (``,[]{}``) separates tokens and a key ends in ``\\x02``: exact for
    strings without structural characters; a string holding some splits into pieces the same
    way in every text compared, so the counts stay comparable.
    """

    __slots__ = ("_in_strings", "_objects", "_scalars", "_strings", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self._scalars: Counter[bytes] | None = None
        self._strings: bytes | None = None
        self._objects: Counter[bytes] | None = None
        self._in_strings: dict[bytes, int] = {}

    def scalars(self) -> Counter[bytes]:
        """The scalar tokens (strings with their quotes, numbers, booleans, nulls) and keys, counted."""
        if self._scalars is None:
            split = self.data.replace(b'":', b'"\x02\x01').translate(_DELIMITERS)
            self._scalars = Counter(split.split(b"\x01"))
        return self._scalars

    def strings(self) -> bytes:
        """The string values (tokens in quotes), separated so that no match spans two of them."""
        if self._strings is None:
            self._strings = b"\x00".join(
                [
                    token
                    for token, count in self.scalars().items()
                    if token[:1] == token[-1:] == b'"'
                    for _ in range(count)
                ]
            )
        return self._strings

    def in_strings(self, needle: bytes) -> int:
        """How often ``needle`` occurs inside the string values (remembered per needle)."""
        count = self._in_strings.get(needle)
        if count is None:
            count = self._in_strings[needle] = self.strings().count(needle)
        return count

    def objects(self) -> Counter[bytes]:
        """The innermost objects (models without nested models), counted by their text."""
        if self._objects is None:
            self._objects = Counter(_INNERMOST.findall(self.data))
        return self._objects


def _strings_accounted(shown: _Text, hidden: _Text, state: _Text) -> bool:
    """True if every string value of ``shown`` is one the state shows visibly, counted.

    That is, each string token occurs in ``shown`` and ``hidden`` together at most as often as
    in ``state``: then no needle can occur inside ``shown``'s strings more often than inside the
    state's strings minus the hidden ones (the counts add up over tokens), and the search for
    hidden values inside text cannot report anything.
    """
    state_scalars = state.scalars()
    shown_scalars = shown.scalars()
    hidden_scalars = hidden.scalars()
    for token, count in shown_scalars.items():
        if (
            token[:1] == b'"'
            and token[-1:] == b'"'
            and (count + hidden_scalars.get(token, 0) > state_scalars.get(token, 0))
        ):
            return False
    for token, count in hidden_scalars.items():
        if (
            token[:1] == b'"'
            and token[-1:] == b'"'
            and token not in shown_scalars
            and (count > state_scalars.get(token, 0))
        ):
            return False
    return True


def _paths(texts: list[tuple[str, bytes]], piece: bytes, scalar: bool) -> str:
    found = [
        path for path, text in texts if piece in (_Text(text).scalars() if scalar else _Text(text).objects())
    ]
    return ", ".join(found)


def _scalar_leaks(
    texts: list[tuple[str, bytes]], hidden: _Text, shown: _Text, state: _Text, added: Counter[bytes]
) -> list[str]:
    """Hidden scalars shown as values, or inside strings, more often than they are visible."""
    leaks: list[str] = []
    shown_scalars = shown.scalars()
    state_scalars = state.scalars()
    accounted: bool | None = None  # whether no hidden value can show inside text (worked out once)
    for token, hidden_count in hidden.scalars().items():
        if token in _NOT_VALUES or token[-1:] == b"\x02":  # what hiding leaves, object keys
            continue
        seen = shown_scalars.get(token, 0)
        where = "in the view"
        visible = 0
        if seen:
            visible = state_scalars[token] - hidden_count + added.get(token, 0)
        needle = token[1:-1] if token[:1] == b'"' else token
        if (not seen or seen <= visible) and needle:
            if accounted is None:
                accounted = _strings_accounted(shown, hidden, state)
            seen = 0 if accounted else shown.in_strings(needle)
            where = "inside text in the view"
            if seen:
                visible = state.in_strings(needle) - hidden.in_strings(needle)
        if seen and seen > visible:
            leaks.append(
                f"{_paths(texts, token, scalar=True)}: hidden value {token.decode(errors='replace')} "
                f"appears {seen} time(s) {where}, {visible} visibly"
            )
    return leaks


def _object_leaks(texts: list[tuple[str, bytes]], hidden: _Text, shown: _Text, state: _Text) -> list[str]:
    """Hidden innermost objects (a card, a bid) shown more often than they are visible."""
    leaks: list[str] = []
    hidden_objects = hidden.objects()
    if not hidden_objects:
        return []
    shown_objects = shown.objects()
    for body, hidden_count in hidden_objects.items():
        seen = shown_objects.get(body, 0)
        if seen:
            visible = state.objects()[body] - hidden_count
            if seen > visible:
                leaks.append(
                    f"{_paths(texts, body, scalar=False)}: hidden object {{{body.decode(errors='replace')}}} "
                    f"appears {seen} time(s) in the view, {visible} visibly"
                )
    return leaks


class _Walk:
    __slots__ = ("counts", "perspective", "regions", "root")

    def __init__(
        self, perspective: Perspective, root: BaseModel, regions: list[tuple[str, object]], counts: list[int]
    ) -> None:
        self.perspective = perspective
        self.root = root
        self.regions = regions
        self.counts = counts


def _collect_model(
    plan: ModelPlan, value: BaseModel, data: dict[str, object], walk: _Walk, owner: str | None, path: str
) -> None:
    if plan.owner_field is not None:
        owner = getattr(value, plan.owner_field)
    owns = owner is not None and owner == walk.perspective
    for name, op, node, policy, _ in plan.steps:
        item = getattr(value, name)
        if op is _COUNT or op is _COUNT_OWNER:
            walk.counts.append(len(item))
        if op is _KEEP:
            visible = True
        elif op is _OWNER or op is _COUNT_OWNER or op is _ORDER_OWNER:
            visible = owns
        elif op is _CUSTOM:
            visible = cast(CustomVisibility, policy).visible_to(
                Viewer(walk.perspective, owner, value, walk.root)
            )
        else:  # DROP, COUNT, ORDER: hidden from everyone in this view
            visible = False
        where = f"{path}.{name}" if path else name
        if not visible:
            if item is not None:
                walk.regions.append((where, data[name]))
        elif node is not None and item is not None:
            _collect(node, item, data[name], walk, owner, where)


def _collect(node: Node, value: Any, data: Any, walk: _Walk, owner: str | None, path: str) -> None:
    if type(node) is ModelNode:
        _collect_model(node.plan, value, data, walk, owner, path)
    elif type(node) is ListNode:
        for index, (item, item_data) in enumerate(zip(value, data, strict=True)):
            if item is not None:
                _collect(node.item, item, item_data, walk, owner, f"{path}[{index}]")
    elif type(node) is DictNode:
        for item, (key, item_data) in zip(value.values(), data.items(), strict=True):
            if item is not None:
                _collect(node.item, item, item_data, walk, owner, f"{path}[{key!r}]")
    else:
        chosen = cast(UnionNode, node).select(value)
        if chosen is not None:
            _collect(chosen, value, data, walk, owner, path)
