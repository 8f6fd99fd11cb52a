"""Fixtures for Hearts's tests.

Game modules are imported inside fixtures, not at module level: pytest loads conftest files
before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop.testing import GameHarness
    from tabletop_hearts.model.config import HeartsConfig
    from tabletop_hearts.model.game_state import HydratedHeartsGameState


@pytest.fixture
def harness() -> GameHarness[HydratedHeartsGameState, HeartsConfig]:
    """A started two-player game with fixed ids (``p1``, ``p2``) and seed 42."""
    from tabletop.testing import GameHarness
    from tabletop_hearts import definition

    return GameHarness(definition, players=2, seed=42)
