"""Tic-tac-toe's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action tic-tac-toe knows."""

    PLACE_MARK = "PlaceMark"
