"""RevealPrize: the chance point that turns up a round's prize, among those not up yet."""

from typing import Literal

from pydantic import Field
from tabletop import ChanceAction, ChanceOutcomes, Game, HydratedChanceAction

from tabletop_goofspiel.components.cards import MAX_CARDS
from tabletop_goofspiel.definition.actions import ActionType
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState


class RevealPrize(ChanceAction):
    """A system action, a chance point: the next prize, each prize not up yet equally likely."""

    type: Literal[ActionType.REVEAL_PRIZE] = ActionType.REVEAL_PRIZE
    """The action tag."""
    outcome: int | None = Field(default=None, ge=1, le=MAX_CARDS)
    """The prize turned up (public); decided by the engine."""


class HydratedRevealPrize(
    RevealPrize, HydratedChanceAction[RevealPrize, HydratedGoofspielGameState, GoofspielConfig]
):
    """RevealPrize's chances: the prizes not turned up yet, ascending, each with weight 1.

    Queued by ``Bidding`` at the start of each round when ``points_order`` is ``random``.
    """

    def chances(self, ctx: Ctx) -> ChanceOutcomes:
        """The prizes not up yet (1..N minus the rounds' and the one up), each with weight 1."""
        return [(card, 1) for card in ctx.state.prizes_left]

    @classmethod
    def chance_space(cls, game: Game[GoofspielConfig]) -> list[int]:
        """The prizes 1..N (OpenSpiel's chance action ``i`` is the prize ``i + 1``)."""
        return list(range(1, game.config.cards + 1))

    def apply(self, ctx: Ctx) -> None:
        """The prize is up; ``Bidding`` opens the round's auction."""
        assert self.outcome is not None  # decided by the engine before apply
        ctx.state.prize = self.outcome
