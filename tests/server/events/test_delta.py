"""Event-stream deltas: ``apply_delta(before, make_delta(before, after)) == after`` for any JSON.

The stream sends a seat what changed in its view as a delta (``tabletop_server.events``); the
TypeScript client applies the same format (``games-ui/client/src/delta.ts``).
"""

from __future__ import annotations

import copy
import random
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import JsonValue
from tabletop_server.events import DeltaError, apply_delta, make_delta

SAFE = 2**53 - 1  # the integers a JavaScript client reads exactly

scalars = (
    st.none()
    | st.booleans()
    | st.integers(-SAFE, SAFE)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6)
)
keys = st.text(max_size=4) | st.sampled_from(["a", "b", "0", "10", "\ue000", "\U0001f600", "~", "+"])
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(keys, inner, max_size=6),
    max_leaves=40,
)


def _text(value: JsonValue) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


@st.composite
def edited(draw: st.DrawFn, value: JsonValue) -> JsonValue:
    """``value`` with a few random edits inside (so deltas nest, splice and pack)."""
    choice = draw(st.integers(0, 9))
    if isinstance(value, dict) and value and choice < 7:
        result = dict(value)
        for key in draw(st.lists(st.sampled_from(sorted(value)), max_size=3, unique=True)):
            action = draw(st.integers(0, 3))
            if action == 0:
                del result[key]
            else:
                result[key] = draw(edited(value[key]))
        for key, item in draw(st.dictionaries(keys, json_values, max_size=2)).items():
            result[key] = item
        return result
    if isinstance(value, list) and value and choice < 7:
        items = list(value)
        for _ in range(draw(st.integers(0, 3))):
            action = draw(st.integers(0, 3))
            at = draw(st.integers(0, len(items)))
            if action == 0 and items:
                del items[min(at, len(items) - 1)]
            elif action == 1:
                items.insert(at, draw(json_values))
            elif items:
                index = min(at, len(items) - 1)
                items[index] = draw(edited(items[index]))
        return items
    return draw(json_values) if choice >= 8 else value


@st.composite
def pairs(draw: st.DrawFn) -> tuple[JsonValue, JsonValue]:
    before = draw(json_values)
    return before, draw(edited(before)) if draw(st.booleans()) else draw(json_values)


def _strings(value: JsonValue, into: set[str]) -> set[str]:
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, list):
        for item in value:
            _strings(item, into)
    elif isinstance(value, dict):
        for key, item in value.items():
            into.add(key)
            _strings(item, into)
    return into


@settings(max_examples=300, deadline=None)
@given(pairs())
def test_a_delta_turns_its_base_into_the_target(pair: tuple[JsonValue, JsonValue]) -> None:
    before, after = pair
    kept = copy.deepcopy(before)
    delta = make_delta(before, after)
    wire = orjson.loads(orjson.dumps(delta))  # what the client receives
    assert _text(apply_delta(before, wire)) == _text(after)
    assert _text(before) == _text(kept)  # neither making nor applying changes the base


@settings(max_examples=150, deadline=None)
@given(pairs())
def test_a_delta_carries_no_string_its_target_lacks(pair: tuple[JsonValue, JsonValue]) -> None:
    """What a stream sends never says more than the seat's own new view (no secret from a diff)."""
    before, after = pair
    assert _strings(make_delta(before, after), set()) <= _strings(after, set()) | {"~"}


def test_a_delta_of_one_move_names_positions_not_keys() -> None:
    before: JsonValue = {"turn": 1, "board": [[None, None], [None, None]], "legal": [{"x": 0}, {"x": 1}]}
    after: JsonValue = {"turn": 2, "board": [[None, "p1"], [None, None]], "legal": []}
    delta = make_delta(before, after)
    assert delta == [0, [0, [1, "p1"]], 1, [[]], 2, 2]  # sorted keys: board, legal, turn
    assert apply_delta(before, delta) == after


def test_a_list_of_same_shaped_objects_is_sent_as_a_template_and_the_leaves_that_vary() -> None:
    legal: list[JsonValue] = [
        {"type": "PlaceMark", "player_id": "p1", "square": {"x": x, "y": y}}
        for y in range(3)
        for x in range(3)
    ]
    delta = make_delta({"legal": []}, {"legal": legal})
    assert delta == [
        0,
        [legal[0], [["square", "x"], ["square", "y"]], [[x, y] for y in range(3) for x in range(3)]],
    ]
    assert len(orjson.dumps(delta)) < len(orjson.dumps(legal)) / 2
    assert apply_delta({"legal": []}, delta) == {"legal": legal}


def test_removing_items_from_a_long_list_sends_splices() -> None:
    before: list[JsonValue] = [{"rank": str(rank)} for rank in range(10)]
    after: JsonValue = [item for index, item in enumerate(before) if index not in (2, 7)]
    assert make_delta(before, after) == ["~", [[2, 1], [7, 1]]]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ([1], [True]),
        ({"a": 0.0}, {"a": -0.0}),
        ({"a": 1}, {"a": 1.0}),
        ({"\ue000": 1, "\U0001f600": 2}, {"\ue000": 1, "\U0001f600": 3}),
        ({"b": 1, "a": 2}, {"a": 2, "b": 1}),
        (None, {"a": []}),
        ({"a": [1, 2]}, {}),
    ],
    ids=["bool-vs-int", "negative-zero", "int-vs-float", "utf16-order", "key-order", "from-null", "to-empty"],
)
def test_json_distinctions_survive(before: JsonValue, after: JsonValue) -> None:
    assert _text(apply_delta(before, orjson.loads(orjson.dumps(make_delta(before, after))))) == _text(after)


def test_keys_are_ordered_by_utf16_code_units_as_javascript_sorts_them() -> None:
    before: JsonValue = {
        "\U0001f600": 1,
        "\ue000": 2,
    }  # code points: U+E000 first; UTF-16: the surrogate pair first
    assert make_delta(before, {"\U0001f600": 5, "\ue000": 2}) == [0, 5]


# -- the client's test vectors --------------------------------------------------------------------

VECTORS = Path(__file__).resolve().parents[3] / "games-ui" / "client" / "test" / "delta-vectors.json"
REFUSED: list[tuple[JsonValue, JsonValue]] = [
    ({"a": 1}, [1, 2]),  # no member at position 1
    ({"a": 1}, ["a", 2]),  # a new member that exists
    ({"a": 1}, [0, [1, 2]]),  # changes inside a scalar
    ([1, 2], [0, []]),  # a list item removed without a splice
    ([1, 2], ["~", [[1, 1], [0, 1]]]),  # splices out of order
    ([1, 2], ["~", [[1, 5]]]),  # past the end
    ([1, 2], ["~", [[0, 1, 5]]]),  # items that are not a list entry
    ({"a": 1}, [0, 1, 0]),  # an odd entry
    ([{"a": 1}], [0, [{"a": 1}, [["b"]], [[1]]]]),  # a column outside the template
    ({"a": 1}, [True, 2]),  # a boolean is not a position
]


def _random_json(rng: random.Random, depth: int = 0) -> JsonValue:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.randrange(-1000, 1000)
    if kind == 3:
        return rng.choice(["", "p1", "p2", "spades", "é", "\U0001f600", "7"])
    if kind == 4:
        return rng.choice([0.5, -2.25, 1e-7, 3.0])
    if kind in (5, 6):
        keys = ["a", "b", "turn", "hand", "0", "10", "9", "\ue000", "\U0001f600", "__proto__", "~"]
        return {rng.choice(keys): _random_json(rng, depth + 1) for _ in range(rng.randrange(5))}
    if rng.random() < 0.3:  # a list of same-shaped objects, as legal actions are
        return [
            {"type": "Ask", "rank": rng.choice("234567"), "at": {"x": i}} for i in range(rng.randrange(6))
        ]
    return [_random_json(rng, depth + 1) for _ in range(rng.randrange(6))]


def _random_edit(rng: random.Random, value: JsonValue) -> JsonValue:
    if isinstance(value, dict) and value and rng.random() < 0.8:
        result = dict(value)
        for key in rng.sample(sorted(value), rng.randrange(1, len(value) + 1)):
            if rng.random() < 0.25:
                del result[key]
            else:
                result[key] = _random_edit(rng, value[key])
        if rng.random() < 0.3:
            result[rng.choice(["new", "b", "\U0001f600"])] = _random_json(rng, 2)
        return result
    if isinstance(value, list) and value and rng.random() < 0.8:
        items = list(value)
        for _ in range(rng.randrange(1, 4)):
            at = rng.randrange(len(items) + 1)
            roll = rng.random()
            if roll < 0.3 and items:
                del items[min(at, len(items) - 1)]
            elif roll < 0.6:
                items.insert(at, _random_json(rng, 2))
            elif items:
                index = min(at, len(items) - 1)
                items[index] = _random_edit(rng, items[index])
        return items
    return _random_json(rng, 1)


def client_vectors() -> JsonValue:
    """The cases the TypeScript applier must agree on: deltas this module makes, and refusals."""
    rng = random.Random(13)
    cases: list[JsonValue] = []
    for _ in range(120):
        before = _random_json(rng)
        after = _random_edit(rng, before)
        cases.append({"before": before, "after": after, "delta": make_delta(before, after)})
    refused: list[JsonValue] = [{"before": before, "delta": delta} for before, delta in REFUSED]
    return {"applies": cases, "refused": refused}


def test_the_client_vectors_are_current() -> None:
    """``games-ui/client/test/delta-vectors.json`` is what this module makes (regenerate: run this file)."""
    assert orjson.loads(VECTORS.read_bytes()) == orjson.loads(orjson.dumps(client_vectors()))


@pytest.mark.parametrize(("before", "delta"), REFUSED)
def test_a_delta_that_does_not_fit_is_refused(before: JsonValue, delta: JsonValue) -> None:
    with pytest.raises(DeltaError) as raised:
        apply_delta(before, delta)
    assert raised.value.code == "delta-does-not-apply"


if __name__ == "__main__":
    VECTORS.write_bytes(orjson.dumps(client_vectors(), option=orjson.OPT_INDENT_2) + b"\n")
