"""AddAmount: add 1..(what you have left this turn) to the shared total."""

from typing import Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError, Model

from tabletop_sample.components.colors import AMOUNT_PER_TURN
from tabletop_sample.definition.actions import ActionType
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import Ctx, HydratedSampleGameState, SampleGameState


class AddAmountMetadata(Model):
    """What an AddAmount did."""

    prior_total: int
    """The shared total before the action."""
    new_total: int
    """The shared total after the action."""


class AddAmount(GameAction):
    """Add an amount to the shared total and to your score."""

    type: Literal[ActionType.ADD_AMOUNT] = ActionType.ADD_AMOUNT
    """The action tag."""
    player_id: str
    """The acting player."""
    amount: int = Field(ge=1, le=AMOUNT_PER_TURN)
    """How much to add."""
    metadata: AddAmountMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedAddAmount(AddAmount, HydratedAction[AddAmount, HydratedSampleGameState, SampleConfig]):
    """AddAmount's rules."""

    @staticmethod
    def can_add_amount(state: SampleGameState, player_id: str) -> bool:
        """True if ``player_id`` is active and has something left to add."""
        return state.is_active(player_id) and state.player(player_id).amount > 0

    def check(self, ctx: Ctx) -> None:
        left = ctx.state.player(self.player_id).amount
        if self.amount > left:
            raise IllegalActionError("amount-too-large", f"{self.amount} > {left} left", path="amount")

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        player = state.player(self.player_id)
        prior = state.total
        state.total += self.amount
        player.score += self.amount
        player.amount -= self.amount
        self.metadata = AddAmountMetadata(prior_total=prior, new_total=state.total)

    @classmethod
    def enumerate(cls, state: HydratedSampleGameState, player_id: str) -> list[Self]:
        if not cls.can_add_amount(state, player_id):
            return []
        left = state.player(player_id).amount
        return [cls.candidate(state, player_id, amount=amount) for amount in range(1, left + 1)]

    @classmethod
    def action_space(cls, game: Game[SampleConfig]) -> list[dict[str, JsonValue]]:
        return [{"amount": amount} for amount in range(1, AMOUNT_PER_TURN + 1)]
