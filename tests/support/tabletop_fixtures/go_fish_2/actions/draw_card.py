"""DrawCard: the game draws the top card of the deck for a player (go fish, or an empty hand)."""

from typing import Annotated, Literal

from tabletop import GameAction, HydratedAction, IllegalActionError, Model
from tabletop.components import Card, Rank
from tabletop.views import OwnerOnly

from tabletop_fixtures.go_fish_2.definition.actions import ActionType
from tabletop_fixtures.go_fish_2.model.config import GoFishConfig
from tabletop_fixtures.go_fish_2.model.game_state import Ctx, HydratedGoFishGameState, pass_turn


class DrawCardMetadata(Model):
    """What a DrawCard did: the card is the drawer's secret, the rest is public."""

    card: Annotated[Card, OwnerOnly()]
    """The card drawn; owner-only: null in every log but the drawer's (the action's ``player_id``).

    It stays owner-only when it is caught: ``caught`` with ``fishing_for`` already tells the table
    its rank, and the suit is not needed to play on. A card that completes a book shows in ``book``.
    """
    caught: bool
    """True if it is the rank the player fished for: they show it and ask again. Public."""
    book: Rank | None = None
    """The rank of the book the card completed, laid down at once; null if none. Public."""


class DrawCard(GameAction):
    """A system action: a player draws one card from the deck."""

    system_only = True

    type: Literal[ActionType.DRAW_CARD] = ActionType.DRAW_CARD
    """The action tag."""
    player_id: str | None = None
    """The player who draws; the game always sets it."""
    fishing_for: Rank | None = None
    """The rank asked for if this is a go-fish draw; null for a draw into an empty hand."""
    metadata: DrawCardMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedDrawCard(DrawCard, HydratedAction[DrawCard, HydratedGoFishGameState, GoFishConfig]):
    """DrawCard's rules: a go-fish draw of another rank passes the turn; otherwise the drawer asks."""

    @property
    def drawer(self) -> str:
        """The player who draws.

        Raises:
            IllegalActionError: ``player_id`` is not set (code ``missing-field``).
        """
        if self.player_id is None:
            raise IllegalActionError("missing-field", "DrawCard names the player who draws", path="player_id")
        return self.player_id

    def check(self, ctx: Ctx) -> None:
        drawer = self.drawer
        if ctx.state.deck.is_empty():
            raise IllegalActionError("deck-empty", f"no card left for {drawer} to draw")

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        card = state.deck.draw()
        state.player(self.drawer).hand.append(card)
        book = state.lay_book(self.drawer, card.rank)
        caught = card.rank == self.fishing_for
        self.metadata = DrawCardMetadata(card=card, caught=caught, book=card.rank if book else None)
        if self.fishing_for is not None and not caught:
            pass_turn(ctx)
