"""Hearts's machine states."""

from enum import StrEnum


class MachineState(StrEnum):
    """Where Hearts's state machine can be."""

    PLAYER_TURN = "PlayerTurn"
    GAME_OVER = "GameOver"
