"""Fixtures for Goofspiel's tests.

Game modules are imported inside fixtures, not at module level: pytest loads conftest files
before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop.testing import GameHarness
    from tabletop_goofspiel.model.config import GoofspielConfig
    from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState

    Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
    MakeHarness = Callable[..., Harness]
    PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]


@pytest.fixture
def make_harness() -> MakeHarness:
    """Build a started two-player game (``p1``, ``p2``): ``make_harness(cards=5, seed=7)``.

    ``prizes``: the prizes the ``RevealPrize`` chance points turn up, in order (``ForcedChance``;
    None: the state's PRNG draws them); ``points_order``: the config's order of the prizes.
    """
    from tabletop.testing import ForcedChance, GameHarness
    from tabletop_goofspiel import definition
    from tabletop_goofspiel.model.config import GoofspielConfig

    def build(
        *, cards: int = 13, seed: int = 42, prizes: Sequence[int] | None = None, points_order: str = "random"
    ) -> Harness:
        config = GoofspielConfig.model_validate({"cards": cards, "points_order": points_order})
        chance = None if prizes is None else ForcedChance(prizes)
        return GameHarness(definition, players=2, seed=seed, config=config, chance=chance)

    return build


@pytest.fixture
def harness(make_harness: MakeHarness) -> Harness:
    """A started two-player game of 13 cards with fixed ids (``p1``, ``p2``) and seed 42."""
    return make_harness()


@pytest.fixture
def play_round() -> PlayRound:
    """Play one round through the engine: ``play_round(harness, {"p2": 5, "p1": 3})`` bids in that order."""
    from tabletop_goofspiel.actions.bid import HydratedBid

    def play(harness: Harness, cards: Mapping[str, int]) -> HydratedGoofspielGameState:
        for player_id, card in cards.items():
            harness.play(harness.action(HydratedBid, player_id, card=card))
        return harness.state

    return play
