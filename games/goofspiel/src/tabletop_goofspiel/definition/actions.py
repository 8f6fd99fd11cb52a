"""Goofspiel's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action Goofspiel knows."""

    BID = "Bid"
    REVEAL = "Reveal"
    REVEAL_PRIZE = "RevealPrize"
