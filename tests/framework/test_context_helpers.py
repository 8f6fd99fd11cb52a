"""MachineContext helpers every turn-based game uses: starting the next turn, ending the game."""

import pytest
from tabletop import AnyState, GameConfig, GameResult
from tabletop.testing import GameHarness

Harness = GameHarness[AnyState, GameConfig]


@pytest.fixture
def harness() -> Harness:
    """A started three-player sample game (its first turn is running)."""
    return GameHarness.for_game("sample", players=3, seed=7)


def test_start_next_turn_ends_the_current_turn_and_activates_the_next_player(harness: Harness) -> None:
    ctx = harness.context()
    order = ctx.turns.turn_order
    first = ctx.turns.current_player_id
    assert first == order[0]
    ctx.state.action_count = 4
    assert ctx.start_next_turn() == order[1]
    assert ctx.state.active_player_ids == [order[1]]
    assert ctx.turns.current_turn is not None and ctx.turns.current_turn.start_index == 4
    assert ctx.turns.last_turn is not None and (
        ctx.turns.last_turn.player_id,
        ctx.turns.last_turn.end_index,
    ) == (
        first,
        4,
    )
    assert ctx.turns.turn_count == 2


def test_start_turn_of_gives_the_turn_to_a_chosen_player_and_play_goes_on_from_them(harness: Harness) -> None:
    ctx = harness.context()
    order = ctx.turns.turn_order
    first = ctx.turns.current_player_id
    ctx.state.action_count = 5
    assert ctx.start_turn_of(order[2]) == order[2]  # e.g. the loser of a challenge starts the round
    assert ctx.state.active_player_ids == [order[2]]
    assert ctx.turns.current_turn is not None and ctx.turns.current_turn.start_index == 5
    assert ctx.turns.last_turn is not None and (
        ctx.turns.last_turn.player_id,
        ctx.turns.last_turn.end_index,
    ) == (
        first,
        5,
    )
    assert ctx.turns.turn_order == order and ctx.turns.turns_of(order[2]) == 1
    assert ctx.start_next_turn() == order[0]  # the order goes on from the chosen player


def test_start_turn_of_refuses_a_player_outside_the_turn_order(harness: Harness) -> None:
    ctx = harness.context()
    with pytest.raises(ValueError, match="not in the turn order"):
        ctx.start_turn_of("p9")
    assert ctx.state.active_player_ids == [ctx.turns.turn_order[0]]


def test_start_next_turn_passes_over_skipped_players(harness: Harness) -> None:
    ctx = harness.context()
    order = ctx.turns.turn_order
    assert ctx.start_next_turn(skip=lambda player_id: player_id == order[1]) == order[2]
    assert ctx.state.active_player_ids == [order[2]]


@pytest.mark.parametrize(
    ("winners", "result"), [(["p2"], GameResult.WIN), (["p1", "p3"], GameResult.WIN), ([], GameResult.DRAW)]
)
def test_end_game_settles_the_result_and_deactivates_everyone(
    harness: Harness, winners: list[str], result: GameResult
) -> None:
    ctx = harness.context()
    ctx.end_game(winners)
    assert ctx.state.result is result
    assert ctx.state.winning_player_ids == winners
    assert ctx.state.active_player_ids == []
    assert ctx.turns.current_turn is None and ctx.turns.last_turn is not None


def test_end_game_rejects_an_unknown_winner_and_changes_nothing(harness: Harness) -> None:
    ctx = harness.context()
    before = ctx.state.model_dump()
    with pytest.raises(KeyError, match="p9"):
        ctx.end_game(["p1", "p9"])
    assert ctx.state.model_dump() == before
