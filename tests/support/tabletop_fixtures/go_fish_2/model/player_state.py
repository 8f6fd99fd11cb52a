"""What Go Fish knows about one player."""

from typing import Annotated

from pydantic import Field
from tabletop import PlayerState
from tabletop.components import Card, Rank
from tabletop.views import CountOnly


class GoFishPlayerState(PlayerState):
    """A Go Fish player: the hand (secret to its owner) and the books laid down (public)."""

    hand: Annotated[list[Card], CountOnly()] = Field(default_factory=list)
    """The cards in the player's hand, in the order received; only its owner sees them, others how many."""
    books: list[Rank] = Field(default_factory=list)
    """The ranks of the books of four the player laid down, in the order made; public."""
