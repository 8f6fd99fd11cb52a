"""Go Fish's state, its queries, the turn rule and the initializer."""

from typing import Annotated

from pydantic import Field
from tabletop import GameState, Hydrated, MachineContext
from tabletop.components import Card, DrawBag, HydratedDrawBag, Rank, standard_deck
from tabletop.views import CountOnly

from tabletop_fixtures.go_fish_2.components.rules import BOOK_COUNT, BOOK_SIZE, hand_size
from tabletop_fixtures.go_fish_2.definition.states import MachineState
from tabletop_fixtures.go_fish_2.model.config import GoFishConfig
from tabletop_fixtures.go_fish_2.model.player_state import GoFishPlayerState


class GoFishGameState(GameState[GoFishPlayerState, MachineState]):
    """Go Fish's state: the deck; hands and books are on the players."""

    deck: Annotated[DrawBag[Card], CountOnly()] = Field(default_factory=DrawBag[Card])
    """The stock players draw from, top last; views show only how many cards it holds (``deck_count``)."""


class HydratedGoFishGameState(GoFishGameState, Hydrated[GoFishGameState]):
    """Go Fish's state with its queries."""

    deck: Annotated[HydratedDrawBag[Card], CountOnly()] = Field(default_factory=HydratedDrawBag[Card])
    """The stock players draw from, top last; views show only how many cards it holds (``deck_count``)."""

    def is_out(self, player_id: str) -> bool:
        """True if the player has no cards and none are left to draw: they are skipped."""
        return not self.player(player_id).hand and self.deck.is_empty()

    def lay_book(self, player_id: str, rank: Rank) -> bool:
        """Lay down the player's ``rank`` cards as a book if they hold all four; True if so."""
        player = self.player(player_id)
        if sum(card.rank == rank for card in player.hand) < BOOK_SIZE:
            return False
        player.hand = [card for card in player.hand if card.rank != rank]
        player.books.append(rank)
        return True

    def all_books_made(self) -> bool:
        """True once every rank's book is on the table: the game is over."""
        return sum(len(player.books) for player in self.players) == BOOK_COUNT

    def leaders(self) -> list[str]:
        """Ids of the players with the most books, in seating order."""
        most = max(len(player.books) for player in self.players)
        return [player.player_id for player in self.players if len(player.books) == most]


Ctx = MachineContext[HydratedGoFishGameState, GoFishConfig]


def pass_turn(ctx: Ctx) -> str:
    """Give the turn to the next player in turn order who is not out; return their id."""
    return ctx.start_next_turn(skip=ctx.state.is_out)


def setup(ctx: Ctx) -> None:
    """Shuffle a standard deck with the PRNG, deal each seat a hand in turn, lay dealt books down.

    Each player gets the next ``hand_size`` cards from the top, in seating order.
    """
    state = ctx.state
    state.deck.shuffle_in(standard_deck(), ctx.prng)
    for player in state.players:
        player.hand = state.deck.draw_many(hand_size(len(state.players)))
        for rank in Rank:
            state.lay_book(player.player_id, rank)
