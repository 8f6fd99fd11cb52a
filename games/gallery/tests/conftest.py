"""Fixtures for Gallery's tests.

Game modules are imported inside fixtures, not at module level: pytest loads conftest files
before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop.testing import GameHarness
    from tabletop_gallery.model.config import GalleryConfig
    from tabletop_gallery.model.game_state import HydratedGalleryGameState

    Harness = GameHarness[HydratedGalleryGameState, GalleryConfig]
    MakeHarness = Callable[..., Harness]
    Rig = Callable[..., HydratedGalleryGameState]


@pytest.fixture
def make_harness() -> MakeHarness:
    """Build a started game with fixed ids (``p1``..``pN``): ``make_harness(players=4, seed=7)``."""
    from tabletop.testing import GameHarness
    from tabletop_gallery import definition

    def build(*, players: int = 3, seed: int = 42) -> Harness:
        return GameHarness(definition, players=players, seed=seed)

    return build


@pytest.fixture
def harness(make_harness: MakeHarness) -> Harness:
    """A started three-player game (``p1``, ``p2``, ``p3``), seed 42: round 1 dealt, ``p1`` on turn."""
    return make_harness()


@pytest.fixture
def rig() -> Rig:
    """Give players chosen hands (painting numbers) and money, keeping every painting somewhere once.

    ``rig(harness, hands={"p1": [1, 13]}, money={"p2": 5})``: each listed hand is replaced (its
    old cards go back to the deck, the chosen ones come from wherever they were among the hands
    and the deck); listed money is set, and the difference is booked to the bank's ledger so the
    money invariant holds. Returns the harness's (changed) state.
    """

    def rig_state(
        harness: Harness,
        *,
        hands: Mapping[str, Sequence[int]] = {},
        money: Mapping[str, int] = {},
    ) -> HydratedGalleryGameState:
        from tabletop_gallery.components.paintings import gallery_deck

        state = harness.state
        by_id = {painting.id: painting for painting in gallery_deck()}
        wanted = {number for numbers in hands.values() for number in numbers}
        for player in state.players:
            if player.player_id in hands:
                state.deck.items.extend(player.hand)
                player.hand = []
            player.hand = [painting for painting in player.hand if painting.id not in wanted]
        state.deck.items = [painting for painting in state.deck.items if painting.id not in wanted]
        for player in state.players:
            if player.player_id in hands:
                player.hand = [by_id[number] for number in hands[player.player_id]]
        for player_id, amount in money.items():
            player = state.player(player_id)
            change = amount - player.money
            player.money = amount
            if change > 0:
                state.bank_paid += change
            else:
                state.bank_received -= change
        return state

    return rig_state
