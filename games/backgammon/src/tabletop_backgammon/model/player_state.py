"""What Backgammon knows about one player: their checkers on the points, on the bar and off."""

from typing import Annotated

from pydantic import Field
from tabletop import PlayerState

Count = Annotated[int, Field(ge=0, le=15)]
"""A number of checkers."""


def _empty_board() -> list[int]:
    return [0] * 24


class BackgammonPlayerState(PlayerState):
    """A Backgammon player: where their 15 checkers are.

    The first seat plays White, moving from point 1 towards point 24 and bearing off past it;
    the second plays Black, moving from point 24 towards point 1 and bearing off below it.
    """

    points: Annotated[list[Count], Field(min_length=24, max_length=24)] = Field(default_factory=_empty_board)
    """Checkers on each point: ``points[0]`` is point 1, ``points[23]`` point 24 (one numbering
    for both players)."""
    bar: Count = 0
    """Checkers on the bar (hit, waiting to enter)."""
    off: Count = 0
    """Checkers borne off; 15 wins."""
