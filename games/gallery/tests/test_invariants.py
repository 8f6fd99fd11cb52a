"""The invariants report lost, doubled and misplaced paintings, made money and bad lots."""

from collections.abc import Callable

import pytest
from tabletop.testing import GameHarness
from tabletop_gallery.actions.play_painting import HydratedPlayPainting
from tabletop_gallery.components.paintings import Artist
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import HydratedGalleryGameState
from tabletop_gallery.model.invariants import invariants

Harness = GameHarness[HydratedGalleryGameState, GalleryConfig]
Break = Callable[[HydratedGalleryGameState], None]


def _lose_a_card(state: HydratedGalleryGameState) -> None:
    state.players[0].hand.pop()


def _double_a_card(state: HydratedGalleryGameState) -> None:
    state.players[1].hand.append(state.players[0].hand[0])


def _make_money(state: HydratedGalleryGameState) -> None:
    state.players[2].money += 1


def _overcount(state: HydratedGalleryGameState) -> None:
    state.played[Artist.DAHL] = 6


def _bad_award(state: HydratedGalleryGameState) -> None:
    state.values.append(
        {Artist.AMARO: 30, Artist.BEXLEY: 30, Artist.CORVO: 0, Artist.DAHL: 0, Artist.ESRA: 0}
    )


def _wrong_bid_order(state: HydratedGalleryGameState) -> None:
    auction = state.auction
    assert auction is not None
    auction.participants = list(reversed(auction.participants))


@pytest.mark.parametrize(
    ("breaks", "problem"),
    [
        (_lose_a_card, "paintings nowhere"),
        (_double_a_card, "paintings in several places"),
        (_make_money, "the bank's ledger says"),
        (_overcount, "Dahl has 6 played"),
        (_bad_award, "gave the artists [30, 30]"),
        (_wrong_bid_order, "bid order"),
    ],
)
def test_each_broken_rule_is_reported(harness: Harness, breaks: Break, problem: str) -> None:
    first = harness.state.player("p1").hand[0]
    if first.kind.value == "double" or first.kind.value == "fixed-price":
        first = next(
            p for p in harness.state.player("p1").hand if p.kind.value in {"open", "once-around", "sealed"}
        )
    state = harness.play(harness.action(HydratedPlayPainting, "p1", painting_id=first.id))
    assert list(invariants(state)) == []
    breaks(state)
    assert any(problem in line for line in invariants(state)), list(invariants(state))
