"""Pig's options."""

from pydantic import Field
from tabletop import GameConfig

MAX_TARGET = 1000
"""The highest target a config may set."""


class PigConfig(GameConfig):
    """Options of Pig."""

    target: int = Field(default=100, ge=10, le=MAX_TARGET)
    """The score that wins: the first player to bank this many points wins (10 to 1000)."""
