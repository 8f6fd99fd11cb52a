"""What Goofspiel knows about one player."""

from pydantic import Field
from tabletop import PlayerState


class GoofspielPlayerState(PlayerState):
    """A Goofspiel player: the cards left in their hand and the points they have won."""

    hand: list[int] = Field(default_factory=list)
    """The unspent cards, ascending; public, since a bid leaves the hand only when the bids are revealed."""
    score: int = Field(default=0, ge=0)
    """The sum of the prize cards the player has won."""
