"""What Go Fish knows about one player."""

from typing import Annotated

from pydantic import Field
from tabletop import Model, PlayerState
from tabletop.components import Card, Rank
from tabletop.views import CountOnly

_RANK_ORDER = {rank: position for position, rank in enumerate(Rank)}
"""Each rank's place in rank order (ace first)."""


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
    holds: list[Rank] = Field(default_factory=list)
    """Ranks the table knows the player holds at least one card of, in rank order; public.

    A rank joins when the player asks for it or shows a card of it fished for; it leaves when
    they hand its cards over or book it. Empty after a migration from 3.0.0 (not recorded then).
    """
    lacks: list[Rank] = Field(default_factory=list)
    """Ranks the table knows the player holds no card of, in rank order; public.

    A rank joins when the player hands its cards over or answers "go fish" for it; the list is
    emptied when they draw a card nobody else sees, and a booked rank leaves every list.
    """

    def book_ranks(self) -> list[Rank]:
        """The ranks of the player's books, in the order made."""
        return [book.rank for book in self.books]

    def note(self, rank: Rank, *, held: bool) -> None:
        """Record what the table now knows: the player holds a card of ``rank`` or holds none."""
        holds, lacks = set(self.holds), set(self.lacks)
        (holds if held else lacks).add(rank)
        (lacks if held else holds).discard(rank)
        self.holds = sorted(holds, key=_RANK_ORDER.__getitem__)
        self.lacks = sorted(lacks, key=_RANK_ORDER.__getitem__)

    def forget(self, rank: Rank) -> None:
        """Drop ``rank`` from what the table knows of the player (it is booked)."""
        self.holds = [r for r in self.holds if r != rank]
        self.lacks = [r for r in self.lacks if r != rank]
