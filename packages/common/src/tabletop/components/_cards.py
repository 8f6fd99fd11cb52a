"""The standard 52-card deck: ranks, suits, cards, and the deck in a fixed order.

Cards are small frozen models (hashable, compared by value) that serialize as
``{"rank": "10", "suit": "hearts"}``; :attr:`Card.code` is the short form ``"10H"``.

Example:
    >>> from tabletop.components import Card, Rank, Suit, standard_deck
    >>> deck = standard_deck()
    >>> len(deck), deck[0].code, deck[-1].code
    (52, 'AC', 'KS')
    >>> Card(rank=Rank.TEN, suit=Suit.HEARTS).code
    '10H'
    >>> Card.from_code("7d") == Card(rank=Rank.SEVEN, suit=Suit.DIAMONDS)
    True
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from tabletop._model import Model

__all__ = ["Card", "Rank", "Suit", "standard_deck"]


class Rank(StrEnum):
    """A card's rank, ace low: members are in the order A, 2, ..., 10, J, Q, K."""

    ACE = "A"
    TWO = "2"
    THREE = "3"
    FOUR = "4"
    FIVE = "5"
    SIX = "6"
    SEVEN = "7"
    EIGHT = "8"
    NINE = "9"
    TEN = "10"
    JACK = "J"
    QUEEN = "Q"
    KING = "K"


class Suit(StrEnum):
    """A card's suit, in bridge order: clubs, diamonds, hearts, spades."""

    CLUBS = "clubs"
    DIAMONDS = "diamonds"
    HEARTS = "hearts"
    SPADES = "spades"

    @property
    def letter(self) -> str:
        """The suit's one-letter code: ``C``, ``D``, ``H`` or ``S``."""
        return self.value[0].upper()


class Card(Model, frozen=True, revalidate_instances="subclass-instances"):
    """A playing card of the standard deck."""

    rank: Rank
    """The card's rank."""
    suit: Suit
    """The card's suit."""

    @property
    def code(self) -> str:
        """The short form: rank then suit letter, e.g. ``"7H"``, ``"10S"``, ``"AC"``."""
        return f"{self.rank.value}{self.suit.letter}"

    @classmethod
    def from_code(cls, code: str) -> Self:
        """Parse a short form such as ``"7H"`` or ``"10s"`` (case-insensitive).

        Raises:
            ValueError: ``code`` is not a rank followed by a suit letter.
        """
        text = code.strip().upper()
        ranks = {rank.value: rank for rank in Rank}
        suits = {suit.letter: suit for suit in Suit}
        rank, suit = ranks.get(text[:-1]), suits.get(text[-1:])
        if rank is None or suit is None:
            msg = f"{code!r} is not a card code like '7H' or '10S'"
            raise ValueError(msg)
        return cls(rank=rank, suit=suit)

    def __str__(self) -> str:
        return self.code


_DECK = tuple(Card(rank=rank, suit=suit) for suit in Suit for rank in Rank)


def standard_deck() -> list[Card]:
    """The 52 cards, suit by suit (clubs, diamonds, hearts, spades), each suit ace to king.

    A new list on every call; shuffle it with the state's PRNG before dealing. The cards in it
    are immutable, so every list shares the same 52 objects (a state copy shares them too).
    """
    return list(_DECK)
