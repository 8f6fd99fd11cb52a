"""What Hearts knows about one player."""

from tabletop import PlayerState


class HeartsPlayerState(PlayerState):
    """A Hearts player (add fields with a docstring each)."""
