"""Deal: the system shuffles and deals the 52 cards for the next deal."""

from typing import Literal

from pydantic import Field
from tabletop import GameAction, HydratedAction, Model

from tabletop_hearts.components.cards import PassDirection
from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.deal import deal
from tabletop_hearts.model.game_state import Ctx, HydratedHeartsGameState


class DealMetadata(Model):
    """What a Deal started (the cards themselves are in the hands, hidden)."""

    number: int = Field(ge=1)
    """The deal's number, from 1."""
    pass_direction: PassDirection
    """Where this deal's cards are passed."""


class Deal(GameAction):
    """Shuffle and deal thirteen cards to each player; the game issues it, players never do."""

    system_only = True

    type: Literal[ActionType.DEAL] = ActionType.DEAL
    """The action tag."""
    metadata: DealMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedDeal(Deal, HydratedAction[Deal, HydratedHeartsGameState, HeartsConfig]):
    """Deal's rules: the PRNG decides the cards (see ``tabletop_hearts.model.deal``)."""

    def apply(self, ctx: Ctx) -> None:
        """Deal the next deal's hands and record its number and pass direction."""
        deal(ctx)
        state = ctx.state
        self.metadata = DealMetadata(number=state.deal_number, pass_direction=state.pass_direction)
