"""Go Fish's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action Go Fish knows."""

    ASK = "Ask"
    DRAW_CARD = "DrawCard"
