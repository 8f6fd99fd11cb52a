"""Backgammon's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action Backgammon knows."""

    MOVE = "Move"
    PASS = "Pass"
    ROLL_DICE = "RollDice"
