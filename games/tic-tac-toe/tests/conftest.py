"""Fixtures for tic-tac-toe's tests.

Game modules are imported inside fixtures, not at module level: pytest loads conftest files
before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop.testing import GameHarness
    from tabletop_tic_tac_toe.model.config import TicTacToeConfig
    from tabletop_tic_tac_toe.model.game_state import HydratedTicTacToeGameState, TicTacToeGameState

    Draw = Callable[[TicTacToeGameState, str], None]

MARKS = {"X": "p1", "O": "p2", ".": None}
"""How board pictures spell squares: X is p1's mark, O is p2's, . is empty."""


@pytest.fixture
def harness() -> GameHarness[HydratedTicTacToeGameState, TicTacToeConfig]:
    """A started game with fixed ids (``p1`` plays first, ``p2``) and seed 42."""
    from tabletop.testing import GameHarness
    from tabletop_tic_tac_toe import definition

    return GameHarness(definition, players=2, seed=42)


@pytest.fixture
def draw() -> Draw:
    """Set a state's board from a picture: three rows of ``X``/``O``/``.``, top row first."""

    def draw_board(state: TicTacToeGameState, picture: str) -> None:
        rows = picture.split()
        assert [len(row) for row in rows] == [3, 3, 3], picture
        for y, row in enumerate(rows):
            for x, mark in enumerate(row):
                state.board.set(x, y, MARKS[mark])

    return draw_board
