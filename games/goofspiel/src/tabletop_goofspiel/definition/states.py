"""Goofspiel's machine states."""

from enum import StrEnum


class MachineState(StrEnum):
    """Where Goofspiel's state machine can be."""

    BIDDING = "Bidding"
    REVEALING = "Revealing"
    GAME_OVER = "GameOver"
