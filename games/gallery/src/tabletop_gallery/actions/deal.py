"""Deal: the game starts a round and deals each player their paintings for it."""

from typing import Literal

from pydantic import Field
from tabletop import GameAction, HydratedAction, Model

from tabletop_gallery.components.rules import deal_size
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState


class DealMetadata(Model):
    """What a Deal did; public (the cards themselves are in the hidden hands)."""

    round: int = Field(ge=1)
    """The round that started."""
    cards_each: int = Field(ge=0)
    """How many paintings each player was dealt (none in the last round)."""


class Deal(GameAction):
    """A system action: the next round starts, and each player is dealt its paintings."""

    system_only = True

    type: Literal[ActionType.DEAL] = ActionType.DEAL
    """The action tag."""
    metadata: DealMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedDeal(Deal, HydratedAction[Deal, HydratedGalleryGameState, GalleryConfig]):
    """Deal's rules: start the next round; each player, in seating order, draws the round's deal."""

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        round_ = state.rounds.start_round(state.action_count)
        cards = deal_size(len(state.players), round_.number)
        for player in state.players:
            player.hand.extend(state.deck.draw_many(cards))
        self.metadata = DealMetadata(round=round_.number, cards_each=cards)
