"""NodeSet: a set of coordinates that serializes canonically."""

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st
from tabletop.boards import Hex, NodeSet, Square

ints = st.integers(min_value=-4, max_value=4)
hexes = st.builds(Hex, q=ints, r=ints)
operations = st.lists(st.tuples(st.sampled_from(["add", "discard"]), hexes), max_size=30)


@settings(max_examples=60, deadline=None)
@given(initial=st.lists(hexes, max_size=10), ops=operations)
def test_a_node_set_behaves_like_a_python_set(initial: list[Hex], ops: list[tuple[str, Hex]]) -> None:
    node_set = NodeSet[Hex](nodes=initial)
    model = set(initial)
    for operation, hex_ in ops:
        if operation == "add":
            assert node_set.add(hex_) == (hex_ not in model)
            model.add(hex_)
        else:
            assert node_set.discard(hex_) == (hex_ in model)
            model.discard(hex_)
        assert len(node_set) == len(model)
    assert set(node_set.nodes) == model
    assert all(hex_ in node_set for hex_ in model)
    assert node_set.nodes == sorted(model, key=Hex.sort_key)


@settings(max_examples=40, deadline=None)
@given(a=st.lists(hexes, max_size=8), b=st.lists(hexes, max_size=8))
def test_equal_sets_serialize_identically_and_set_algebra_matches(a: list[Hex], b: list[Hex]) -> None:
    left, right = NodeSet[Hex](nodes=a), NodeSet[Hex](nodes=b)
    assert NodeSet[Hex](nodes=list(reversed(a))).model_dump_json() == left.model_dump_json()
    assert set(left.union(b).nodes) == set(a) | set(b)
    assert set(left.intersection(b).nodes) == set(a) & set(b)
    assert set(left.difference(b).nodes) == set(a) - set(b)
    left.update(right.nodes)
    assert left == NodeSet[Hex](nodes=a + b)


def test_square_sets_are_row_major_and_round_trip_through_json() -> None:
    squares = NodeSet[Square](nodes=[Square(x=1, y=1), Square(x=2, y=0), Square(x=0, y=1)])
    data = orjson.loads(squares.model_dump_json())
    assert data == {"nodes": [{"x": 2, "y": 0}, {"x": 0, "y": 1}, {"x": 1, "y": 1}]}
    assert NodeSet[Square].model_validate(data) == squares
    assert Hex(q=2, r=0) not in squares
    assert "text" not in squares
    assert len(NodeSet[Square]()) == 0
