"""Hearts' cards: ace-high ranks, points per card, the pass directions and the deal order."""

from enum import StrEnum

from tabletop.components import Card, Rank, Suit

__all__ = [
    "AVOID_ALL_TRICKS_BONUS",
    "CARDS_IN_PASS",
    "DECK",
    "HAND_SIZE",
    "JACK_OF_DIAMONDS",
    "JACK_OF_DIAMONDS_POINTS",
    "MOON_POINTS",
    "PLAYERS",
    "QUEEN_OF_SPADES",
    "TRICKS",
    "TWO_OF_CLUBS",
    "PassDirection",
    "card_key",
    "card_points",
    "is_queen_of_spades",
    "rank_value",
    "sort_key",
]

PLAYERS = 4
"""Hearts is played by four."""
HAND_SIZE = 13
"""Cards dealt to each player."""
TRICKS = 13
"""Tricks in a deal."""
CARDS_IN_PASS = 3
"""Cards each player passes before a deal's play."""
MOON_POINTS = 26
"""The points of all thirteen hearts and the queen of spades: shooting the moon takes them all."""
JACK_OF_DIAMONDS_POINTS = -10
"""What the jack of diamonds is worth with the ``jd_bonus`` option."""
AVOID_ALL_TRICKS_BONUS = -5
"""What taking no trick is worth with the ``avoid_all_tricks_bonus`` option."""

ACE_HIGH = (
    Rank.TWO,
    Rank.THREE,
    Rank.FOUR,
    Rank.FIVE,
    Rank.SIX,
    Rank.SEVEN,
    Rank.EIGHT,
    Rank.NINE,
    Rank.TEN,
    Rank.JACK,
    Rank.QUEEN,
    Rank.KING,
    Rank.ACE,
)
"""The ranks from low to high: in Hearts the ace is high."""
_RANK_VALUE = {rank: value for value, rank in enumerate(ACE_HIGH)}
_SUIT_ORDER = {suit: order for order, suit in enumerate(Suit)}

QUEEN_OF_SPADES = Card(rank=Rank.QUEEN, suit=Suit.SPADES)
"""Worth 13 points to whoever takes it."""
JACK_OF_DIAMONDS = Card(rank=Rank.JACK, suit=Suit.DIAMONDS)
"""Worth -10 points with the ``jd_bonus`` option."""
TWO_OF_CLUBS = Card(rank=Rank.TWO, suit=Suit.CLUBS)
"""Its holder leads the first trick."""


def card_key(card: Card) -> tuple[Rank, Suit]:
    """The card as a plain tuple: cheap to hash and compare (a model's ``==`` is slow on hot paths)."""
    return card.rank, card.suit


def is_queen_of_spades(card: Card) -> bool:
    """True for the queen of spades."""
    return card.rank is Rank.QUEEN and card.suit is Suit.SPADES


def rank_value(card: Card) -> int:
    """The card's rank from 0 (two) to 12 (ace): the higher wins a trick in the suit led."""
    return _RANK_VALUE[card.rank]


def sort_key(card: Card) -> tuple[int, int]:
    """Order of a sorted hand: clubs, diamonds, hearts, spades, each from two to ace."""
    return _SUIT_ORDER[card.suit], _RANK_VALUE[card.rank]


DECK: tuple[Card, ...] = tuple(sorted((Card(rank=r, suit=s) for s in Suit for r in ACE_HIGH), key=sort_key))
"""The 52 cards in hand order (clubs two to ace, then diamonds, hearts, spades)."""


def card_points(card: Card, *, jd_bonus: bool) -> int:
    """What taking ``card`` in a trick scores: 1 a heart, 13 the queen of spades, -10 the jack of
    diamonds with ``jd_bonus``, 0 otherwise."""
    if card.suit is Suit.HEARTS:
        return 1
    if is_queen_of_spades(card):
        return 13
    if jd_bonus and card.rank is Rank.JACK and card.suit is Suit.DIAMONDS:
        return JACK_OF_DIAMONDS_POINTS
    return 0


class PassDirection(StrEnum):
    """Where each player's three cards go before a deal's play: it turns with the deal number."""

    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"
    NONE = "none"

    @property
    def offset(self) -> int:
        """Seats from the passer to the receiver, in turn order (OpenSpiel's ``PassDir`` number)."""
        return _OFFSETS[self]

    @classmethod
    def for_deal(cls, number: int, *, pass_cards: bool) -> "PassDirection":
        """The direction of deal ``number`` (from 1): left, right, across, none, and again.

        Without ``pass_cards`` nobody ever passes.
        """
        if not pass_cards:
            return cls.NONE
        return _ROTATION[(number - 1) % len(_ROTATION)]


_OFFSETS = {PassDirection.NONE: 0, PassDirection.LEFT: 1, PassDirection.ACROSS: 2, PassDirection.RIGHT: 3}
_ROTATION = (PassDirection.LEFT, PassDirection.RIGHT, PassDirection.ACROSS, PassDirection.NONE)
