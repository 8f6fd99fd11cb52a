"""The turn manager: turn spans, counts, next player with skips, reversing, first player; an
immutable value, a new one per change."""

import pickle

import pytest
from pydantic import ValidationError
from tabletop._copier import copier
from tabletop.components import FrozenDict, TurnManager


@pytest.fixture
def turns() -> TurnManager:
    return TurnManager(turn_order=("a", "b", "c"))


def test_started_records_a_span_and_ends_the_previous_one(turns: TurnManager) -> None:
    after = turns.started("a", 0).started("b", 3)
    assert after.last_turn is not None
    assert (after.last_turn.player_id, after.last_turn.start_index, after.last_turn.end_index) == ("a", 0, 3)
    assert after.current_player_id == "b"
    assert (after.turn_count, after.turns_of("a"), after.turns_of("b"), after.turns_of("c")) == (2, 1, 1, 0)
    assert turns == TurnManager(turn_order=("a", "b", "c"))  # the first value never changed


def test_ended_without_a_turn_is_the_manager_itself(turns: TurnManager) -> None:
    assert turns.ended(5) is turns
    assert turns.current_turn is None
    assert turns.last_turn is None


@pytest.mark.parametrize(
    ("after", "skipped", "expected"),
    [(None, set(), "a"), ("a", set(), "b"), ("c", set(), "a"), ("a", {"b"}, "c"), ("b", {"c", "a"}, "b")],
)
def test_next_player_wraps_and_skips(
    turns: TurnManager, after: str | None, skipped: set[str], expected: str
) -> None:
    assert turns.next_player(after, skip=lambda player: player in skipped) == expected


def test_next_player_defaults_to_after_the_current_turn(turns: TurnManager) -> None:
    running = turns.started("b", 0)
    assert running.next_player() == "c"
    assert running.ended(1).next_player() == "c"


@pytest.mark.parametrize("order", [(), ("a",)])
def test_next_player_fails_clearly_when_nobody_can_play(order: tuple[str, ...]) -> None:
    turns = TurnManager(turn_order=order)
    with pytest.raises(ValueError, match=r"empty|skipped"):
        turns.next_player(skip=lambda _: True)


def test_reversed_and_with_first_player(turns: TurnManager) -> None:
    reversed_ = turns.reversed()
    assert reversed_.turn_order == ("c", "b", "a")
    rotated = reversed_.with_first_player("a")
    assert rotated.turn_order == ("a", "c", "b")
    assert rotated.next_player("a") == "c"
    assert turns.turn_order == ("a", "b", "c")
    assert turns.with_order(["b", "a", "c"]).turn_order == ("b", "a", "c")
    with pytest.raises(ValueError, match="not in tuple"):
        turns.with_first_player("z")
    with pytest.raises(TypeError, match="player ids"):
        turns.with_order([1, 2])  # type: ignore[list-item]


def test_a_list_is_validated_into_a_tuple_and_a_dict_into_a_frozen_dict() -> None:
    turns = TurnManager.model_validate({"turn_order": ["a", "b"], "turns_taken": {"a": 2}})
    assert turns.turn_order == ("a", "b") and type(turns.turns_taken) is FrozenDict
    assert turns.turns_taken == {"a": 2} and turns.turns_of("a") == 2
    assert turns.model_dump() == {
        "turn_order": ("a", "b"),
        "turn_count": 0,
        "turns_taken": {"a": 2},
        "current_turn": None,
        "last_turn": None,
    }
    assert type(turns.model_dump()["turns_taken"]) is dict
    assert TurnManager.model_validate_json(turns.model_dump_json()) == turns


def test_starting_a_turn_for_a_stranger_fails(turns: TurnManager) -> None:
    with pytest.raises(ValueError, match="not in the turn order"):
        turns.started("z", 0)


def test_the_manager_and_its_parts_refuse_changes(turns: TurnManager) -> None:
    running = turns.started("a", 0)
    with pytest.raises(ValidationError):
        running.turn_count = 9  # type: ignore[misc]
    with pytest.raises(TypeError, match="cannot change"):
        running.turns_taken["a"] = 5
    with pytest.raises(TypeError, match="cannot change"):
        running.turns_taken.update(b=1)
    with pytest.raises(AttributeError):
        running.turn_order.append("d")  # type: ignore[attr-defined]
    assert running.current_turn is not None
    with pytest.raises(ValidationError):
        running.current_turn.end_index = 9  # type: ignore[misc]
    assert running.turns_taken == {"a": 1}


@pytest.mark.parametrize("change", ["started", "ended"])
def test_a_change_leaves_the_shared_value_alone(turns: TurnManager, change: str) -> None:
    running = turns.started("a", 0)
    turn = running.current_turn
    after = running.started("b", 4) if change == "started" else running.ended(4)
    assert running.current_turn is turn and turn is not None and turn.end_index is None
    assert running.turns_taken == {"a": 1} and running.turn_count == 1
    assert after.last_turn is not None and after.last_turn.end_index == 4
    assert after.last_turn.model_fields_set == {"player_id", "start_index", "end_index"}


def test_copies_share_the_manager(turns: TurnManager) -> None:
    running = turns.started("a", 0)
    assert copier(TurnManager)(running) is running
    assert TurnManager.model_validate(running) is running  # an instance of exactly the class is shared
    assert pickle.loads(pickle.dumps(running)) == running
    assert hash(running) == hash(TurnManager.model_validate_json(running.model_dump_json()))


def test_ending_a_turn_at_a_negative_index_is_refused(turns: TurnManager) -> None:
    running = turns.started("a", 0)
    with pytest.raises(ValidationError):
        running.ended(-1)
    with pytest.raises(ValidationError):
        running.started("b", -1)
    assert running.current_player_id == "a"  # nothing changed


def test_the_frozen_dict_is_a_dict_that_makes_new_values() -> None:
    counts: FrozenDict[str, int] = FrozenDict({"a": 1})
    more = counts.set("b", 2)
    assert (counts, more) == ({"a": 1}, {"a": 1, "b": 2}) and type(more) is FrozenDict
    assert repr(counts) == "{'a': 1}"
    assert FrozenDict.fromkeys("ab", 0) == {"a": 0, "b": 0}
    assert pickle.loads(pickle.dumps(more)) == more and type(pickle.loads(pickle.dumps(more))) is FrozenDict
    for change in ("clear", "popitem"):
        with pytest.raises(TypeError, match="cannot change"):
            getattr(counts, change)()
    with pytest.raises(TypeError, match="cannot change"):
        del counts["a"]
    with pytest.raises(TypeError, match="cannot change"):
        counts |= {"c": 3}
