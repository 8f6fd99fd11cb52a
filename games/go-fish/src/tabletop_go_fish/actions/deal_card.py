"""DealCard: a declared chance point that deals one card of the stock, face down, to one seat."""

from typing import Annotated, Literal

from tabletop import ChanceAction, ChanceOutcomes, Game, HydratedChanceAction
from tabletop.components import Card, standard_deck
from tabletop.views import Owner, OwnerOnly

from tabletop_go_fish.definition.actions import ActionType
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import Ctx, HydratedGoFishGameState


class DealCard(ChanceAction):
    """Deal one card of the stock to a seat; the engine decides which, each equally likely."""

    type: Literal[ActionType.DEAL_CARD] = ActionType.DEAL_CARD
    """The action tag."""
    to: Annotated[str, Owner()]
    """The seat dealt to (nobody acts during the deal)."""
    outcome: Annotated[Card | None, OwnerOnly()] = None
    """The card dealt, decided by the engine; only the seat dealt to sees it."""


class HydratedDealCard(DealCard, HydratedChanceAction[DealCard, HydratedGoFishGameState, GoFishConfig]):
    """DealCard's chances: every card still in the stock, equally likely, in standard deck order."""

    def chances(self, ctx: Ctx) -> ChanceOutcomes:
        """The cards in the stock, each with weight 1."""
        return [(card, 1) for card in ctx.state.deck]

    @classmethod
    def chance_space(cls, game: Game[GoFishConfig]) -> list[Card]:
        """The 52 cards, in standard deck order."""
        return standard_deck()

    def apply(self, ctx: Ctx) -> None:
        """The card joins the seat's hand; four of a rank dealt are laid down as a book (turn 0)."""
        assert self.outcome is not None  # decided by the engine before apply
        ctx.state.take_from_stock(self.to, self.outcome)
