"""Pig's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action Pig knows."""

    ROLL = "Roll"
    HOLD = "Hold"
    ROLL_DIE = "RollDie"
