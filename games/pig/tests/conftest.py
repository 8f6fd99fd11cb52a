"""Fixtures for Pig's tests.

Game modules are imported inside fixtures, not at module level: pytest loads conftest files
before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop.testing import GameHarness
    from tabletop_pig.model.config import PigConfig
    from tabletop_pig.model.game_state import HydratedPigGameState, PigGameState

    Rig = Callable[[PigGameState, int], None]


@pytest.fixture
def harness() -> GameHarness[HydratedPigGameState, PigConfig]:
    """A started two-player game with fixed ids (``p1`` on turn, ``p2``), seed 42.

    Pig has chance, so the harness keys its PRNG (with the public test key ``TEST_PRNG_KEY``).
    """
    from tabletop.testing import GameHarness
    from tabletop_pig import definition

    return GameHarness(definition, players=2, seed=42)


@pytest.fixture
def rig() -> Rig:
    """Advance a state's PRNG, draw by draw, until the next ``Roll``'s die comes up ``face``.

    A roll draws twice: the ``RollDie`` chance point's id, then its face (one ``rand_int`` of
    the six equally likely faces). Tests that need no PRNG force faces with ``ForcedChance``.
    """
    from tabletop import Prng

    def next_face(state: PigGameState) -> int:
        ahead = Prng(state.prng)  # immutable: drawing ahead leaves the state alone
        ahead.rand_id()  # the RollDie's id
        return 1 + ahead.rand_int(6)

    def rig_next_roll(state: PigGameState, face: int) -> None:
        while next_face(state) != face:
            Prng.over(state).random()

    return rig_next_roll
