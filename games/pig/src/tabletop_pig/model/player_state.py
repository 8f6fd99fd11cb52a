"""What Pig knows about one player."""

from pydantic import Field
from tabletop import PlayerState


class PigPlayerState(PlayerState):
    """A Pig player and their banked points."""

    score: int = Field(default=0, ge=0)
    """Points banked by holding; a 1 never takes them away."""
