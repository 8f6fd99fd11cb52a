"""Gallery's numbers: money, rounds, deals, awards and the bid ladder bots choose from."""

from __future__ import annotations

STARTING_MONEY = 100
"""Money each player starts with."""
ROUNDS = 4
"""Rounds in a game."""
ROUND_ENDING_COUNT = 5
"""The count of one artist's paintings played in a round that ends it (that card is not sold)."""
AWARDS = (30, 20, 10)
"""Value added to the first, second and third artist of a round's ranking."""
DEALS = {3: (10, 6, 6, 0), 4: (9, 4, 4, 0), 5: (8, 3, 3, 0)}
"""Cards dealt to each player at the start of rounds 1..4, by player count."""
MIN_PLAYERS = 3
"""The fewest players."""
MAX_PLAYERS = 5
"""The most players."""
MAX_BID = 5_000
"""The highest amount any bid or price may name.

Above anything a player can hold: the bank pays at most 12 paintings a round (four of each of
three ranked artists) worth at most 30 times the round's number each, 3,600 over a game, and
the five players start with 500 together.
"""
LADDER_STEPS = (0, 1, 2, 5, 10, 20)
"""What a bot adds to the lowest amount it may bid: the amounts it chooses from (see :func:`ladder`)."""


def deal_size(players: int, round_number: int) -> int:
    """Cards each of ``players`` players is dealt at the start of round ``round_number`` (1..4)."""
    return DEALS[players][round_number - 1]


def ladder(lowest: int, highest: int) -> list[int]:
    """The amounts a bot offers between ``lowest`` and ``highest``: a few steps up, and all-in.

    Any amount in range is legal; enumerating every one would give a search hundreds of
    near-identical moves, so the legal-action walk offers ``lowest`` plus each of
    :data:`LADDER_STEPS`, and ``highest`` itself. Empty if ``lowest > highest``.
    """
    if lowest > highest:
        return []
    return sorted({min(lowest + step, highest) for step in LADDER_STEPS} | {highest})
