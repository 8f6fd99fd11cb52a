"""DrawCard: a declared chance point, a player draws a card of the stock (go fish, or an empty hand)."""

from typing import Annotated, Literal

from tabletop import ChanceAction, ChanceOutcomes, Game, HydratedChanceAction, IllegalActionError, Model
from tabletop.components import Card, Rank, standard_deck
from tabletop.views import OwnerOnly

from tabletop_go_fish.definition.actions import ActionType
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import Ctx, HydratedGoFishGameState, pass_turn


class DrawCardMetadata(Model):
    """What the card drawn did; public (the card itself is the action's owner-only ``outcome``)."""

    caught: bool
    """True if it is the rank the player fished for: they show it and ask again. Public."""
    book: Rank | None = None
    """The rank of the book the card completed, laid down at once; null if none. Public."""


class DrawCard(ChanceAction):
    """A chance point: a player draws one card of the stock; the engine decides which, each equally likely."""

    type: Literal[ActionType.DRAW_CARD] = ActionType.DRAW_CARD
    """The action tag."""
    player_id: str | None = None
    """The player who draws; the game always sets it."""
    fishing_for: Rank | None = None
    """The rank asked for if this is a go-fish draw; null for a draw into an empty hand."""
    outcome: Annotated[Card | None, OwnerOnly()] = None
    """The card drawn, decided by the engine; owner-only: null in every log but the drawer's.

    It stays owner-only when it is caught: ``caught`` with ``fishing_for`` already tells the table
    its rank, and the suit is not needed to play on. A card that completes a book shows in ``book``.
    """
    metadata: DrawCardMetadata | None = None
    """Set by the game when the action is applied."""


class HydratedDrawCard(DrawCard, HydratedChanceAction[DrawCard, HydratedGoFishGameState, GoFishConfig]):
    """DrawCard's rules: a go-fish draw of another rank passes the turn; otherwise the drawer asks."""

    def chances(self, ctx: Ctx) -> ChanceOutcomes:
        """The cards in the stock, each with weight 1, in standard deck order."""
        return [(card, 1) for card in ctx.state.deck]

    @classmethod
    def chance_space(cls, game: Game[GoFishConfig]) -> list[Card]:
        """The 52 cards, in standard deck order."""
        return standard_deck()

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
        if not ctx.state.deck:
            raise IllegalActionError("deck-empty", f"no card left for {drawer} to draw")

    def apply(self, ctx: Ctx) -> None:
        state, card = ctx.state, self.outcome
        assert card is not None  # decided by the engine before apply
        book = state.take_from_stock(self.drawer, card)
        caught = card.rank == self.fishing_for
        if caught and not book:
            state.player(self.drawer).note(card.rank, held=True)  # shown to the table
        self.metadata = DrawCardMetadata(caught=caught, book=card.rank if book else None)
        if self.fishing_for is not None and not caught:
            pass_turn(ctx)
