"""DealCard: a declared chance point that deals one card, face down, to one seat."""

from typing import Annotated, Literal

from tabletop import ChanceAction, ChanceOutcomes, Game, HydratedChanceAction
from tabletop.components import Card
from tabletop.views import Owner, OwnerOnly

from tabletop_hearts.components.cards import DECK, card_key, sort_key
from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import Ctx, HydratedHeartsGameState


class DealCard(ChanceAction):
    """Deal one card of those not dealt yet to a seat; the engine decides which (52 per deal)."""

    type: Literal[ActionType.DEAL_CARD] = ActionType.DEAL_CARD
    """The action tag."""
    to: Annotated[str, Owner()]
    """The seat dealt to (nobody acts during the deal)."""
    outcome: Annotated[Card | None, OwnerOnly()] = None
    """The card dealt, decided by the engine; only the seat dealt to sees it."""


class HydratedDealCard(DealCard, HydratedChanceAction[DealCard, HydratedHeartsGameState, HeartsConfig]):
    """DealCard's chances: every card not dealt yet, equally likely, in hand order."""

    def chances(self, ctx: Ctx) -> ChanceOutcomes:
        """The cards in no hand yet, each with weight 1."""
        dealt = {card_key(card) for player in ctx.state.players for card in player.hand}
        return [(card, 1) for card in DECK if card_key(card) not in dealt]

    @classmethod
    def chance_space(cls, game: Game[HeartsConfig]) -> list[Card]:
        """The 52 cards, in hand order."""
        return list(DECK)

    def apply(self, ctx: Ctx) -> None:
        """The card joins the seat's hand, which stays sorted."""
        assert self.outcome is not None
        hand = ctx.state.player(self.to).hand
        hand.append(self.outcome)
        hand.sort(key=sort_key)
