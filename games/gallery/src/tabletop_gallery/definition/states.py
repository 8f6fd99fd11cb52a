"""Gallery's machine states."""

from enum import StrEnum


class MachineState(StrEnum):
    """Where Gallery's state machine can be."""

    DEALING = "Dealing"
    PLAYER_TURN = "PlayerTurn"
    DOUBLE_OFFER = "DoubleOffer"
    OPEN_BIDDING = "OpenBidding"
    ONCE_AROUND_BIDDING = "OnceAroundBidding"
    SEALED_BIDDING = "SealedBidding"
    REVEALING = "Revealing"
    PRICE_SETTING = "PriceSetting"
    FIXED_PRICE_OFFER = "FixedPriceOffer"
    SELLING = "Selling"
    ROUND_END = "RoundEnd"
    GAME_OVER = "GameOver"
