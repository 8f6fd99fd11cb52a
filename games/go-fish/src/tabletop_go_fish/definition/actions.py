"""Go Fish's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action Go Fish knows."""

    ASK = "Ask"
    DEAL_CARD = "DealCard"
    DRAW_CARD = "DrawCard"
