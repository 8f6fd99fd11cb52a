"""PlayerTurn: the players alternate; the first winning chain ends the game."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.boards import Hex
from tabletop.testing import GameHarness
from tabletop_hex.actions.place_stone import HydratedPlaceStone
from tabletop_hex.definition.states import MachineState
from tabletop_hex.model.config import HexConfig
from tabletop_hex.model.game_state import HexGameState, HydratedHexGameState
from tabletop_hex.state_handlers.player_turn import PlayerTurn

Harness = GameHarness[HydratedHexGameState, HexConfig]
Draw = Callable[[HexGameState, str], None]
MakeHarness = Callable[[int, int], Harness]


def test_enter_alternates_the_players(harness: Harness) -> None:
    ctx = harness.context()
    assert ctx.state.active_player_ids == ["p1"]  # p1, OpenSpiel's player 0, moves first
    seen = []
    for _ in range(4):
        PlayerTurn().enter(ctx)
        seen.append(ctx.state.active_player_ids)
    assert seen == [["p2"], ["p1"], ["p2"], ["p1"]]


def test_on_action_goes_on_until_a_chain_wins(small: MakeHarness, draw: Draw) -> None:
    harness = small(3, 3)
    ctx = harness.context()
    action = harness.action(HydratedPlaceStone, "p1", cell={"q": 1, "r": 2})
    draw(ctx.state, ".X. .X. ...")
    action.apply(ctx)
    assert ctx.state.winning_chain == [Hex(q=1, r=0), Hex(q=1, r=1), Hex(q=1, r=2)]
    assert PlayerTurn().on_action(action, ctx) is MachineState.GAME_OVER
    other = small(3, 3)
    ctx = other.context()
    draw(ctx.state, ".X. ... ...")
    other.action(HydratedPlaceStone, "p1", cell={"q": 1, "r": 2}).apply(ctx)
    assert ctx.state.winning_chain == []
    assert PlayerTurn().on_action(action, ctx) is MachineState.PLAYER_TURN


def test_only_the_player_on_turn_may_place_a_stone(harness: Harness) -> None:
    engine, state, game = harness.engine, harness.state, harness.game
    assert engine.valid_action_types(state, "p1", game) == ["PlaceStone"]
    assert engine.valid_action_types(state, "p2", game) == []
