"""What Hearts knows about one player."""

from typing import Annotated

from pydantic import Field
from tabletop import PlayerState
from tabletop.components import Card
from tabletop.views import CountOnly, OwnerOnly


class HeartsPlayerState(PlayerState):
    """A Hearts player: the hand (secret), the pass (secret), points this deal and the total."""

    hand: Annotated[list[Card], CountOnly()] = Field(default_factory=list)
    """The cards held, sorted (clubs, diamonds, hearts, spades; two to ace); others see how many."""
    passed: Annotated[list[Card], OwnerOnly()] = Field(default_factory=list)
    """The three cards this player chose to pass this deal (still in the hand until the pass lands)."""
    has_passed: bool = False
    """True once the player has chosen their three cards this deal (public: the table waits for it)."""
    received: Annotated[list[Card], OwnerOnly()] = Field(default_factory=list)
    """The three cards passed to this player this deal, once the pass has landed."""
    points: int = 0
    """Points taken this deal (after the deal: with the moon and the bonuses settled)."""
    tricks_won: int = Field(default=0, ge=0)
    """Tricks taken this deal."""
    score: int = 0
    """The total of the finished deals' points: the lowest total wins the game."""
