"""What Go Fish knows about one player."""

from typing import Annotated

from pydantic import Field
from tabletop import Model, PlayerState
from tabletop.components import Card, Rank
from tabletop.views import CountOnly


class Book(Model):
    """A book of four laid down: its rank and the turn it was made in (public)."""

    rank: Rank
    """The rank of the four cards."""
    turn: int | None = Field(ge=0)
    """The number of the turn it was made in (the game's first turn is 1; 0 for a book dealt at
    the start); null for a book made before logic 3.0.0 recorded turns (a migrated match)."""


class GoFishPlayerState(PlayerState):
    """A Go Fish player: the hand (secret to its owner) and the books laid down (public)."""

    hand: Annotated[list[Card], CountOnly()] = Field(default_factory=list)
    """The cards in the player's hand, in the order received; only its owner sees them, others how many."""
    books: list[Book] = Field(default_factory=list)
    """The books of four the player laid down, in the order made, each with its turn; public."""

    def book_ranks(self) -> list[Rank]:
        """The ranks of the player's books, in the order made."""
        return [book.rank for book in self.books]
