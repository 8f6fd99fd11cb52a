"""Hearts' machine states."""

from enum import StrEnum


class MachineState(StrEnum):
    """Where Hearts' state machine can be."""

    DEALING = "Dealing"
    PASSING = "Passing"
    PLAYING = "Playing"
    GAME_OVER = "GameOver"
