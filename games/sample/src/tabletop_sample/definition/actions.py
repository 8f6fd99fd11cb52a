"""The sample game's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action the sample game knows."""

    ADD_AMOUNT = "AddAmount"
    PASS = "Pass"
