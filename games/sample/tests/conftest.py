"""Fixtures for the sample game's tests.

Game modules are imported inside fixtures, not at module level: pytest loads conftest files
before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop.testing import GameHarness
    from tabletop_sample.model.config import SampleConfig
    from tabletop_sample.model.game_state import HydratedSampleGameState


@pytest.fixture
def harness() -> GameHarness[HydratedSampleGameState, SampleConfig]:
    """A started two-player sample game with fixed ids and seed 42."""
    from tabletop.testing import GameHarness
    from tabletop_sample import definition

    return GameHarness(definition, players=2, seed=42)
