"""The sample game's machine states."""

from enum import StrEnum


class MachineState(StrEnum):
    """Where the sample game's state machine can be."""

    START_OF_TURN = "StartOfTurn"
    END_OF_GAME = "EndOfGame"
