"""Hex's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action Hex knows."""

    PLACE_STONE = "PlaceStone"
