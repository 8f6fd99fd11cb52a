"""What Gallery knows about one player."""

from typing import Annotated

from pydantic import Field
from tabletop import PlayerState
from tabletop.views import CountOnly, OwnerOnly

from tabletop_gallery.components.paintings import Painting
from tabletop_gallery.components.rules import STARTING_MONEY


class GalleryPlayerState(PlayerState):
    """A Gallery player: money (their secret), hand (hidden) and this round's purchases (public)."""

    money: Annotated[int, OwnerOnly()] = Field(default=STARTING_MONEY, ge=0)
    """The player's money; only they see it (payments are public in the log)."""
    hand: Annotated[list[Painting], CountOnly()] = Field(default_factory=list)
    """The paintings in hand, in the order dealt; only their owner sees them, others how many."""
    bought: list[Painting] = Field(default_factory=list)
    """The paintings bought (or taken) this round, in order; public. Sold or discarded at the round's end."""
