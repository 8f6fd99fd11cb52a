"""Gallery's cards: five artists, five auction kinds, seventy paintings."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field
from tabletop import Model

__all__ = ["ARTIST_CARDS", "Artist", "AuctionKind", "Painting", "gallery_deck"]


class Artist(StrEnum):
    """The five artists, in the order that breaks ties in the ranking (first listed wins)."""

    AMARO = "Amaro"
    BEXLEY = "Bexley"
    CORVO = "Corvo"
    DAHL = "Dahl"
    ESRA = "Esra"


class AuctionKind(StrEnum):
    """How a painting is auctioned; the order the kinds are spread over each artist's cards."""

    OPEN = "open"
    ONCE_AROUND = "once-around"
    SEALED = "sealed"
    FIXED_PRICE = "fixed-price"
    DOUBLE = "double"


ARTIST_CARDS = {Artist.AMARO: 12, Artist.BEXLEY: 13, Artist.CORVO: 14, Artist.DAHL: 15, Artist.ESRA: 16}
"""How many paintings each artist has: 70 in all."""


class Painting(Model, frozen=True, revalidate_instances="subclass-instances"):
    """One painting card: its number, its artist and the auction kind printed on it."""

    id: int = Field(ge=1, le=70)
    """The card's number, 1..70: artists in order, each artist's cards in a row."""
    artist: Artist
    """Who painted it."""
    kind: AuctionKind
    """How it is auctioned when played (a double's pair is sold under the second card's kind)."""


def _deck() -> tuple[Painting, ...]:
    kinds = list(AuctionKind)
    cards: list[Painting] = []
    for artist, count in ARTIST_CARDS.items():
        for index in range(count):
            cards.append(Painting(id=len(cards) + 1, artist=artist, kind=kinds[index % len(kinds)]))
    return tuple(cards)


_DECK = _deck()


def gallery_deck() -> list[Painting]:
    """The 70 paintings in number order (a new list; the cards are shared and immutable).

    Each artist's cards take the kinds open, once-around, sealed, fixed-price, double in turn,
    so the kinds are spread as evenly as possible in that order: Amaro's 12 cards are 3 open,
    3 once-around and 2 of each other kind.
    """
    return list(_DECK)
