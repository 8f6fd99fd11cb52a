"""The cards and numbers: 70 paintings, kinds spread evenly in order, deals, the bid ladder."""

from collections import Counter

import pytest
from tabletop_gallery.components.paintings import ARTIST_CARDS, Artist, AuctionKind, gallery_deck
from tabletop_gallery.components.rules import deal_size, ladder


def test_the_deck_has_seventy_numbered_paintings_by_five_artists() -> None:
    deck = gallery_deck()
    assert [painting.id for painting in deck] == list(range(1, 71))
    assert Counter(painting.artist for painting in deck) == {
        Artist.AMARO: 12,
        Artist.BEXLEY: 13,
        Artist.CORVO: 14,
        Artist.DAHL: 15,
        Artist.ESRA: 16,
    }


@pytest.mark.parametrize("artist", list(Artist))
def test_each_artists_kinds_are_spread_as_evenly_as_possible_in_order(artist: Artist) -> None:
    kinds = Counter(painting.kind for painting in gallery_deck() if painting.artist is artist)
    counts = [kinds[kind] for kind in AuctionKind]
    assert max(counts) - min(counts) <= 1
    assert counts == sorted(counts, reverse=True)  # the extra cards go to the kinds listed first
    assert sum(counts) == ARTIST_CARDS[artist]


@pytest.mark.parametrize(("players", "deals"), [(3, [10, 6, 6, 0]), (4, [9, 4, 4, 0]), (5, [8, 3, 3, 0])])
def test_deal_sizes_by_player_count(players: int, deals: list[int]) -> None:
    assert [deal_size(players, number) for number in range(1, 5)] == deals
    assert players * sum(deals) <= 70


@pytest.mark.parametrize(
    ("low", "high", "amounts"),
    [(1, 100, [1, 2, 3, 6, 11, 21, 100]), (5, 8, [5, 6, 7, 8]), (0, 0, [0]), (9, 4, [])],
)
def test_the_ladder_offers_a_few_steps_and_all_in(low: int, high: int, amounts: list[int]) -> None:
    assert ladder(low, high) == amounts
