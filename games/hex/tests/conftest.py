"""Fixtures for Hex's tests.

Game modules are imported inside fixtures, not at module level: pytest loads conftest files
before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop.testing import GameHarness
    from tabletop_hex.model.config import HexConfig
    from tabletop_hex.model.game_state import HexGameState, HydratedHexGameState

    Harness = GameHarness[HydratedHexGameState, HexConfig]
    Draw = Callable[[HexGameState, str], None]
    MakeHarness = Callable[..., Harness]

STONES = {"X": "p1", "O": "p2", ".": None}
"""How board pictures spell cells: X is p1's stone (top to bottom), O is p2's (left to right)."""


@pytest.fixture
def harness() -> Harness:
    """A started two-player game on the default 11 x 11 board, ``p1`` first, seed 42."""
    from tabletop.testing import GameHarness
    from tabletop_hex import definition

    return GameHarness(definition, players=2, seed=42)


@pytest.fixture
def small() -> MakeHarness:
    """A started game on a board of the given size: ``small(cols, rows)``."""
    from tabletop.testing import GameHarness
    from tabletop_hex import definition
    from tabletop_hex.model.config import HexConfig

    def make(cols: int, rows: int) -> Harness:
        return GameHarness(definition, players=2, seed=42, config=HexConfig(num_cols=cols, num_rows=rows))

    return make


@pytest.fixture
def draw() -> Draw:
    """Set a state's board from a picture: one word per row, top row first, of ``X``/``O``/``.``."""
    from tabletop.boards import Hex

    def draw_board(state: HexGameState, picture: str) -> None:
        rows = picture.split()
        assert len(rows) == state.rows and all(len(row) == state.cols for row in rows), picture
        for r, row in enumerate(rows):
            for q, stone in enumerate(row):
                state.board.set(Hex(q=q, r=r), STONES[stone])

    return draw_board
