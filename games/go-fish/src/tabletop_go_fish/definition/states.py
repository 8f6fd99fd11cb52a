"""Go Fish's machine states."""

from enum import StrEnum


class MachineState(StrEnum):
    """Where Go Fish's state machine can be."""

    DEALING = "Dealing"
    PLAYER_TURN = "PlayerTurn"
    GAME_OVER = "GameOver"
