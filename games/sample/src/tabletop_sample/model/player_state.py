"""What the sample game knows about one player."""

from pydantic import Field
from tabletop import PlayerState


class SamplePlayerState(PlayerState):
    """A sample-game player: their score and what they may still spend this turn."""

    score: int = Field(default=0, ge=0)
    """Sum of every amount the player added."""
    amount: int = Field(default=0, ge=0)
    """What the player may still add this turn (5 at the start of their turn)."""
