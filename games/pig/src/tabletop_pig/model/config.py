"""Pig's options (the last four have OpenSpiel's ``pig`` meanings; the defaults are ours)."""

from pydantic import Field
from tabletop import GameConfig

MAX_TARGET = 1000
"""The highest target a config may set."""
MAX_DICE_OUTCOMES = 20
"""The most faces a config's die may have."""


class PigConfig(GameConfig):
    """Options of Pig. OpenSpiel's ``pig`` defaults are ``PigConfig(horizon=1000,
    hold_without_points=True, must_hold_at_target=True)`` (its ``winscore`` is ``target``)."""

    target: int = Field(default=100, ge=10, le=MAX_TARGET)
    """The score that wins: the first player to bank this many points wins (10 to 1000;
    OpenSpiel's ``winscore``)."""
    dice_outcomes: int = Field(default=6, ge=2, le=MAX_DICE_OUTCOMES)
    """The die's faces, 1 to this (2 to 20; OpenSpiel's ``diceoutcomes``)."""
    horizon: int = Field(default=0, ge=0)
    """The most rolls and holds in a game, after which it ends drawn unless a hold has just won
    it; 0: no limit (OpenSpiel's ``horizon``)."""
    hold_without_points: bool = False
    """Whether a player may hold with nothing rolled this turn, passing the turn (OpenSpiel: yes)."""
    must_hold_at_target: bool = False
    """Whether a player whose score plus turn total reaches the target must hold instead of
    rolling (OpenSpiel: yes)."""
