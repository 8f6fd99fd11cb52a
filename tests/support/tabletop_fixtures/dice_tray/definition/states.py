"""Dice tray machine states."""

from enum import StrEnum


class MachineState(StrEnum):
    """Where the dice tray can be."""

    ROLLING = "Rolling"
    DONE = "Done"
