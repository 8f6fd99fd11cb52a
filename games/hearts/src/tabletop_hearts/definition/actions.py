"""Hearts's action types."""

from enum import StrEnum


class ActionType(StrEnum):
    """Every action Hearts knows."""

    END_GAME = "EndGame"
