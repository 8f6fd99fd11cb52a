"""Go Fish's state, its queries, the turn rule and the initializer."""

from typing import Annotated

from pydantic import Field
from tabletop import GameState, Hydrated, MachineContext
from tabletop.components import Card, Rank, standard_deck
from tabletop.views import CountOnly

from tabletop_go_fish.components.rules import BOOK_COUNT, BOOK_SIZE
from tabletop_go_fish.definition.states import MachineState
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.player_state import Book, GoFishPlayerState


class GoFishGameState(GameState[GoFishPlayerState, MachineState]):
    """Go Fish's state: the stock; hands and books are on the players."""

    deck: Annotated[list[Card], CountOnly()] = Field(default_factory=list)
    """The cards in the stock, in standard deck order (never shuffled: which of them a deal or a
    draw takes is decided at its chance point); views show only how many (``deck_count``)."""


class HydratedGoFishGameState(GoFishGameState, Hydrated[GoFishGameState]):
    """Go Fish's state with its queries."""

    def is_out(self, player_id: str) -> bool:
        """True if the player has no cards and none are left to draw: they are skipped."""
        return not self.player(player_id).hand and not self.deck

    def lay_book(self, player_id: str, rank: Rank) -> bool:
        """Lay down the player's ``rank`` cards as a book if they hold all four, recording the
        current turn's number (0 while dealing); True if so."""
        player = self.player(player_id)
        if sum(card.rank == rank for card in player.hand) < BOOK_SIZE:
            return False
        player.hand = [card for card in player.hand if card.rank != rank]
        player.books.append(Book(rank=rank, turn=self.turn_manager.turn_count))
        for each in self.players:
            each.forget(rank)
        return True

    def take_from_stock(self, player_id: str, card: Card) -> bool:
        """Move ``card`` from the stock to the end of the player's hand, unseen by the table
        (what it knew the player lacks no longer holds), and lay a book it completes; True if so.
        """
        deck, rank, suit = self.deck, card.rank, card.suit
        for position, held in enumerate(deck):  # the card's place: ``deck.remove(card)`` without
            if held.rank == rank and held.suit == suit:  # a model comparison per card before it
                del deck[position]
                break
        else:
            msg = f"{card.code} is not in the stock"
            raise ValueError(msg)
        player = self.player(player_id)
        player.hand.append(card)
        player.lacks = []
        return self.lay_book(player_id, card.rank)

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
    """Put the 52 cards in the stock, in standard deck order; ``Dealing`` deals them by chance."""
    ctx.state.deck = standard_deck()
