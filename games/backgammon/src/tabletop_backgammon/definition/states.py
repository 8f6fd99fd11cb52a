"""Backgammon's machine states."""

from enum import StrEnum


class MachineState(StrEnum):
    """Where Backgammon's state machine can be."""

    PLAYER_TURN = "PlayerTurn"
    GAME_OVER = "GameOver"
