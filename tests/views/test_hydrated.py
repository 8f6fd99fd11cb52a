"""Hydrated views: the view's fields with the behaviour of the state's hydrated classes."""

from __future__ import annotations

import pytest
from tabletop import Hydrated
from tabletop.components import TurnManager
from tabletop.testing import GameHarness
from tabletop.views import SPECTATOR, hydrated_view_type, project, view_type
from tabletop_fixtures.sealed_bids import (
    HydratedBid,
    HydratedSealedBidsState,
    SealedBidsConfig,
    SealedBidsState,
)
from tabletop_fixtures.sealed_bids import make_definition as make_sealed_bids


@pytest.fixture(scope="module")
def harness() -> GameHarness[SealedBidsState, SealedBidsConfig]:
    harness: GameHarness[SealedBidsState, SealedBidsConfig] = GameHarness(
        make_sealed_bids(), players=3, seed=2
    )
    for player_id in ("p1", "p2", "p3"):
        harness.play(harness.action(HydratedBid, player_id, card=harness.state.player(player_id).hand[0]))
    for player_id in ("p1", "p2"):  # the second round: p3 has not bid yet
        harness.play(harness.action(HydratedBid, player_id, card=harness.state.player(player_id).hand[0]))
    return harness


def test_a_hydrated_view_carries_the_games_behaviour_over_visible_fields(
    harness: GameHarness[SealedBidsState, SealedBidsConfig],
) -> None:
    hydrated_type = hydrated_view_type(SealedBidsState)
    assert hydrated_view_type(HydratedSealedBidsState) is hydrated_type
    view = hydrated_type.hydrate(project(harness.state, "p2"))
    assert isinstance(view, view_type(SealedBidsState)) and isinstance(view, Hydrated)
    state = harness.state
    assert isinstance(state, HydratedSealedBidsState)
    assert view.leaders() == state.leaders()  # type: ignore[attr-defined]
    assert view.player("p2").has_bid() is True  # type: ignore[attr-defined]  # the game's behaviour
    assert state.player("p1").bid is not None
    assert view.player("p1").has_bid() is False  # type: ignore[attr-defined]  # hidden: reads as null
    assert view.player("p3").points == state.player("p3").score  # type: ignore[attr-defined]
    assert view.is_active("p3") and not view.is_active("p2") and not view.is_over
    assert view.turn_manager is state.turn_manager and type(state.turn_manager) is TurnManager  # type: ignore[attr-defined]  # shared


def test_behaviour_reading_a_hidden_field_fails(
    harness: GameHarness[SealedBidsState, SealedBidsConfig],
) -> None:
    view = hydrated_view_type(SealedBidsState, spectator=True).hydrate(project(harness.state, SPECTATOR))
    with pytest.raises(AttributeError, match="deck"):
        view.cards_in_deck()  # type: ignore[attr-defined]
    with pytest.raises(KeyError, match="p9"):
        view.player("p9")


def test_a_hydrated_view_dehydrates_to_the_plain_view(
    harness: GameHarness[SealedBidsState, SealedBidsConfig],
) -> None:
    plain = project(harness.state, "p1")
    hydrated = hydrated_view_type(SealedBidsState).hydrate(plain.model_dump_json())
    back = hydrated.dehydrate()
    assert type(back) is view_type(SealedBidsState)
    assert back == plain
