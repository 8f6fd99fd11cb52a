"""Fixtures for Backgammon's tests.

Game modules are imported inside fixtures, not at module level: pytest loads conftest files
before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable

    from tabletop.testing import GameHarness
    from tabletop_backgammon.model.config import BackgammonConfig
    from tabletop_backgammon.model.game_state import HydratedBackgammonGameState

    Place = Callable[..., None]


@pytest.fixture
def harness() -> GameHarness[HydratedBackgammonGameState, BackgammonConfig]:
    """A started two-player game with fixed ids (``p1``, ``p2``) and seed 42."""
    from tabletop.testing import GameHarness
    from tabletop_backgammon import definition

    return GameHarness(definition, players=2, seed=42)


@pytest.fixture
def place() -> Place:
    """Set up a position on a harness's state: checkers, bars, who moves and the dice.

    ``white`` and ``black`` map point numbers (1..24) to checker counts; checkers not placed on a
    point or the bar are borne off.
    """

    def place(
        state: HydratedBackgammonGameState,
        white: dict[int, int],
        black: dict[int, int],
        *,
        dice: tuple[int, int],
        mover: str = "p1",
        bars: tuple[int, int] = (0, 0),
    ) -> None:
        for player, points, bar in zip(state.players, (white, black), bars, strict=True):
            player.points = [points.get(point, 0) for point in range(1, 25)]
            player.bar = bar
            player.off = 15 - sum(points.values()) - bar
        state.mover, state.dice, state.unused, state.double_half = mover, list(dice), list(dice), False
        state.active_player_ids = [mover]

    return place
