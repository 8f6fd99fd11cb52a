"""Hearts' action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action Hearts knows."""

    DEAL_CARD = "DealCard"
    PASS_CARDS = "PassCards"
    EXCHANGE_PASSES = "ExchangePasses"
    PLAY_CARD = "PlayCard"
