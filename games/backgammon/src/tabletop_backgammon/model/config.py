"""Backgammon's options, with OpenSpiel's names and defaults."""

from typing import Literal

from pydantic import Field
from tabletop import GameConfig

ScoringType = Literal["winloss_scoring", "enable_gammons", "full_scoring"]
"""How much a win is worth: always 1; 2 for a gammon; or also 3 for a backgammon."""


class BackgammonConfig(GameConfig):
    """Options of Backgammon (OpenSpiel's ``backgammon`` parameters of the same names)."""

    scoring_type: ScoringType = "winloss_scoring"
    """``winloss_scoring``: every win is worth 1; ``enable_gammons``: 2 if the loser bore off no
    checker; ``full_scoring``: also 3 if such a loser still has a checker on the bar or in the
    winner's home board."""
    max_player_turns: int = Field(default=500, ge=1, le=10_000)
    """The game is a draw once more than this many turns have been played (a double's two halves
    are one turn)."""
