"""Fixtures shared by the framework tests.

``tabletop`` is imported inside the fixtures: a conftest is imported before typeguard's plugin
instruments the packages, and the plugin refuses packages that are already imported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop import AnyState, GameConfig, GameEngine


@pytest.fixture
def tic_tac_toe() -> tuple[GameEngine[AnyState, GameConfig], AnyState]:
    """Tic-tac-toe's engine and a started 2-player game of it (seed 3)."""
    from tabletop import GameEngine  # after typeguard's instrumentation (see above)
    from tabletop.games import load
    from tabletop.testing import make_game

    definition = load("tic-tac-toe")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    return engine, engine.start(make_game(definition, players=2, seed=3)).state
