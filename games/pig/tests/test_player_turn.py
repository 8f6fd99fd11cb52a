"""PlayerTurn: the player on turn rolls until a 1 or a hold; a hold at the target ends the game."""

from collections.abc import Callable

import pytest
from tabletop.testing import GameHarness
from tabletop_pig import definition
from tabletop_pig.actions.hold import HydratedHold
from tabletop_pig.actions.roll import HydratedRoll
from tabletop_pig.definition.states import MachineState
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import HydratedPigGameState, PigGameState
from tabletop_pig.state_handlers.player_turn import PlayerTurn

Harness = GameHarness[HydratedPigGameState, PigConfig]
Rig = Callable[[PigGameState, int], None]


def test_the_first_player_in_seating_order_starts(harness: Harness) -> None:
    state = harness.state
    assert (state.machine_state, state.active_player_ids) == (MachineState.PLAYER_TURN, ["p1"])
    assert state.turn_manager.turn_count == 1


def test_enter_passes_the_turn_around_the_table() -> None:
    ctx = GameHarness(definition, players=3, seed=1).context()
    seen = []
    for _ in range(4):
        PlayerTurn().enter(ctx)
        seen.append(ctx.state.active_player_ids)
    assert seen == [["p2"], ["p3"], ["p1"], ["p2"]]
    assert ctx.turns.turn_count == 5


@pytest.mark.parametrize(
    ("score", "turn_total", "following"),
    [
        (0, 7, None),  # points on the line: stay, without a new turn
        (0, 0, MachineState.PLAYER_TURN),  # a 1 or a hold: the next player's turn
        (99, 0, MachineState.PLAYER_TURN),
        (100, 0, MachineState.GAME_OVER),
        (104, 0, MachineState.GAME_OVER),
    ],
)
def test_on_action_stays_passes_or_ends_the_game(
    harness: Harness, score: int, turn_total: int, following: MachineState | None
) -> None:
    ctx = harness.context()
    ctx.state.player("p1").score = score
    ctx.state.turn_total = turn_total
    assert PlayerTurn().on_action(harness.action(HydratedHold, "p1"), ctx) is following


def test_a_turn_spans_every_roll_until_the_hold(harness: Harness, rig: Rig) -> None:
    for face in [3, 6, 2]:
        rig(harness.state, face)
        assert harness.play(harness.action(HydratedRoll, "p1")).active_player_ids == ["p1"]
    state = harness.play(harness.action(HydratedHold, "p1"))
    assert (state.player("p1").score, state.active_player_ids, state.turn_manager.turn_count) == (
        11,
        ["p2"],
        2,
    )
    last = state.turn_manager.last_turn
    assert last is not None and (last.player_id, last.start_index, last.end_index) == ("p1", 0, 7)
    current = state.turn_manager.current_turn
    assert current is not None and (current.player_id, current.start_index) == ("p2", 7)


def test_a_one_ends_the_turn_at_the_next_action(harness: Harness, rig: Rig) -> None:
    rig(harness.state, 4)
    harness.play(harness.action(HydratedRoll, "p1"))
    rig(harness.state, 1)
    state = harness.play(harness.action(HydratedRoll, "p1"))
    last = state.turn_manager.last_turn
    assert last is not None and (last.player_id, last.start_index, last.end_index) == ("p1", 0, 4)
    assert state.active_player_ids == ["p2"]


@pytest.mark.parametrize(("turn_total", "types"), [(0, ["Roll"]), (4, ["Roll", "Hold"])])
def test_the_player_on_turn_rolls_and_holds_once_they_have_points(
    harness: Harness, turn_total: int, types: list[str]
) -> None:
    harness.state.turn_total = turn_total
    engine, state, game = harness.engine, harness.state, harness.game
    assert [action.type for action in engine.legal_actions(state, "p1", game)] == types
    assert engine.valid_action_types(state, "p1", game) == ["Roll", "Hold"]
    assert engine.legal_actions(state, "p2", game) == []
    assert engine.valid_action_types(state, "p2", game) == []


def test_the_declared_edges_are_the_ones_taken() -> None:
    assert definition.edges == {
        MachineState.PLAYER_TURN: (MachineState.PLAYER_TURN, MachineState.GAME_OVER),
        MachineState.GAME_OVER: (),
    }
    diagram = definition.diagram()
    assert "PlayerTurn --> GameOver: Hold/Roll\n" in diagram  # a roll ends the game only at the horizon
    assert "PlayerTurn --> PlayerTurn: Hold/RollDie\n" in diagram  # a 1 passes the turn
