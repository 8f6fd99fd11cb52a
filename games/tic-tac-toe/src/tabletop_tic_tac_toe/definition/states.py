"""Tic-tac-toe's machine states."""

from enum import StrEnum


class MachineState(StrEnum):
    """Where Tic-tac-toe's state machine can be."""

    PLAYER_TURN = "PlayerTurn"
    GAME_OVER = "GameOver"
