"""Backgammon's invariants: 15 checkers a side, no shared point, dice that fit the turn."""

from tabletop.testing import GameHarness
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState
from tabletop_backgammon.model.invariants import invariants

Harness = GameHarness[HydratedBackgammonGameState, BackgammonConfig]


def test_a_started_game_keeps_every_invariant(harness: Harness) -> None:
    assert list(invariants(harness.state)) == []


def test_a_checker_too_many_or_too_few_is_reported(harness: Harness) -> None:
    state = harness.state
    state.player("p1").points[0] += 1
    state.player("p2").bar = 0
    state.player("p2").points[23] -= 1
    assert list(invariants(state)) == ["p1 has 16 checkers, not 15", "p2 has 14 checkers, not 15"]


def test_a_point_held_by_both_players_is_reported(harness: Harness) -> None:
    state = harness.state
    state.player("p1").points[23] += 1
    state.player("p1").points[0] -= 1
    assert list(invariants(state)) == ["point 24 holds checkers of both players"]


def test_dice_that_do_not_fit_the_roll_are_reported(harness: Harness) -> None:
    state = harness.state
    state.dice, state.unused, state.double_half = [3, 4], [5], True
    assert list(invariants(state)) == [
        "unused die 5 is not one of the dice [3, 4]",
        "a second half without a double",
    ]
