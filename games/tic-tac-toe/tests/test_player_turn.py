"""PlayerTurn: players alternate; three in a line or a full board ends the game."""

from collections.abc import Callable

import pytest
from tabletop.testing import GameHarness
from tabletop_tic_tac_toe.actions.place_mark import HydratedPlaceMark
from tabletop_tic_tac_toe.definition.states import MachineState
from tabletop_tic_tac_toe.model.config import TicTacToeConfig
from tabletop_tic_tac_toe.model.game_state import HydratedTicTacToeGameState, TicTacToeGameState
from tabletop_tic_tac_toe.state_handlers.player_turn import PlayerTurn

Harness = GameHarness[HydratedTicTacToeGameState, TicTacToeConfig]
Draw = Callable[[TicTacToeGameState, str], None]


def test_enter_alternates_the_players(harness: Harness) -> None:
    ctx = harness.context()
    assert ctx.state.active_player_ids == ["p1"]
    seen = []
    for _ in range(4):
        PlayerTurn().enter(ctx)
        seen.append(ctx.state.active_player_ids)
    assert seen == [["p2"], ["p1"], ["p2"], ["p1"]]
    assert ctx.turns.turn_count == 5


@pytest.mark.parametrize(
    ("picture", "following"),
    [
        ("X.. ... ...", MachineState.PLAYER_TURN),
        ("XO. XO. ...", MachineState.PLAYER_TURN),
        ("XXX OO. ...", MachineState.GAME_OVER),
        ("O.X .OX ..O", MachineState.GAME_OVER),
        ("XOX XOO OXX", MachineState.GAME_OVER),
    ],
)
def test_on_action_ends_the_game_on_a_line_or_a_full_board(
    harness: Harness, draw: Draw, picture: str, following: MachineState
) -> None:
    ctx = harness.context()
    draw(ctx.state, picture)
    action = harness.action(HydratedPlaceMark, "p1", square={"x": 0, "y": 0})
    assert PlayerTurn().on_action(action, ctx) is following


def test_only_the_player_on_turn_may_place_a_mark(harness: Harness) -> None:
    engine, state, game = harness.engine, harness.state, harness.game
    assert engine.valid_action_types(state, "p1", game) == ["PlaceMark"]
    assert engine.valid_action_types(state, "p2", game) == []
