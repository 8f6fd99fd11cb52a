"""The turn manager: turn spans, counts, next player with skips, reversing, first player."""

import pytest
from pydantic import ValidationError
from tabletop.components import HydratedTurnManager


@pytest.fixture
def turns() -> HydratedTurnManager:
    return HydratedTurnManager(turn_order=["a", "b", "c"])


def test_start_turn_records_a_span_and_ends_the_previous_one(turns: HydratedTurnManager) -> None:
    turns.start_turn("a", 0)
    turns.start_turn("b", 3)
    assert turns.last_turn is not None
    assert (turns.last_turn.player_id, turns.last_turn.start_index, turns.last_turn.end_index) == ("a", 0, 3)
    assert turns.current_player_id == "b"
    assert (turns.turn_count, turns.turns_of("a"), turns.turns_of("b"), turns.turns_of("c")) == (2, 1, 1, 0)


def test_end_turn_without_a_turn_does_nothing(turns: HydratedTurnManager) -> None:
    turns.end_turn(5)
    assert turns.current_turn is None
    assert turns.last_turn is None


@pytest.mark.parametrize(
    ("after", "skipped", "expected"),
    [(None, set(), "a"), ("a", set(), "b"), ("c", set(), "a"), ("a", {"b"}, "c"), ("b", {"c", "a"}, "b")],
)
def test_next_player_wraps_and_skips(
    turns: HydratedTurnManager, after: str | None, skipped: set[str], expected: str
) -> None:
    assert turns.next_player(after, skip=lambda player: player in skipped) == expected


def test_next_player_defaults_to_after_the_current_turn(turns: HydratedTurnManager) -> None:
    turns.start_turn("b", 0)
    assert turns.next_player() == "c"
    turns.end_turn(1)
    assert turns.next_player() == "c"


@pytest.mark.parametrize("order", [[], ["a"]])
def test_next_player_fails_clearly_when_nobody_can_play(order: list[str]) -> None:
    turns = HydratedTurnManager(turn_order=order)
    with pytest.raises(ValueError, match=r"empty|skipped"):
        turns.next_player(skip=lambda _: True)


def test_reverse_and_set_first_player(turns: HydratedTurnManager) -> None:
    turns.reverse()
    assert turns.turn_order == ["c", "b", "a"]
    turns.set_first_player("a")
    assert turns.turn_order == ["a", "c", "b"]
    assert turns.next_player("a") == "c"


def test_starting_a_turn_for_a_stranger_fails(turns: HydratedTurnManager) -> None:
    with pytest.raises(ValueError, match="not in the turn order"):
        turns.start_turn("z", 0)


@pytest.mark.parametrize("end", ["start_turn", "end_turn"])
def test_turns_are_immutable_so_a_copy_may_share_them(turns: HydratedTurnManager, end: str) -> None:
    turns.start_turn("a", 0)
    running = turns.current_turn
    copy = turns.model_validate(turns.model_dump())
    shared = copy.model_copy(update={"current_turn": running})  # as a structural copy shares it
    if end == "start_turn":
        shared.start_turn("b", 4)
    else:
        shared.end_turn(4)
    assert running is not None and running.end_index is None  # the shared turn never changes
    assert shared.last_turn is not None and shared.last_turn.end_index == 4
    assert shared.last_turn.model_fields_set == {"player_id", "start_index", "end_index"}
    with pytest.raises(ValidationError):
        running.end_index = 9  # type: ignore[misc]


def test_ending_a_turn_at_a_negative_index_is_refused(turns: HydratedTurnManager) -> None:
    turns.start_turn("a", 0)
    with pytest.raises(ValidationError):
        turns.end_turn(-1)
    with pytest.raises(ValidationError):
        turns.start_turn("b", -1)
    assert turns.current_player_id == "a"  # nothing changed
