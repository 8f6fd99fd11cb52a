"""Dice tray action types, deliberately not in alphabetical order."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action of the dice tray."""

    ROLL = "Roll"
    HOLD = "Hold"
    BANK = "Bank"
