"""Gallery's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action Gallery knows."""

    DEAL = "Deal"
    PLAY_PAINTING = "PlayPainting"
    ADD_PAINTING = "AddPainting"
    DECLINE = "Decline"
    BID = "Bid"
    PASS = "Pass"
    SEAL_BID = "SealBid"
    REVEAL_BIDS = "RevealBids"
    SET_PRICE = "SetPrice"
    BUY = "Buy"
    SELL = "Sell"
    SCORE_ROUND = "ScoreRound"
