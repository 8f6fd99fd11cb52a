"""Go Fish's numbers: hand sizes and books."""

from tabletop.components import Rank

BOOK_SIZE = 4
"""Cards of one rank that make a book."""
BOOK_COUNT = len(Rank)
"""Books in the deck (one per rank); the game ends when all of them are made."""
HAND_SIZE = 7
"""Cards dealt to each player in a game of two or three."""
SMALL_HAND_SIZE = 5
"""Cards dealt to each player in a game of four or more."""
SMALL_HANDS_FROM = 4
"""The player count from which hands are small."""


def hand_size(players: int) -> int:
    """Cards dealt to each of ``players`` players."""
    return SMALL_HAND_SIZE if players >= SMALL_HANDS_FROM else HAND_SIZE
