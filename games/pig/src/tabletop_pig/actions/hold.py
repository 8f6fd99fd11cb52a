"""Hold: the player on turn banks the turn total into their score and passes the turn."""

from typing import Literal, Self

from pydantic import Field
from tabletop import GameAction, HydratedAction, IllegalActionError, Model

from tabletop_pig.definition.actions import ActionType
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import Ctx, HydratedPigGameState


class HoldMetadata(Model):
    """What a Hold banked, filled in by the game."""

    banked: int = Field(ge=0)
    """The turn total added to the score (0 only under ``hold_without_points``)."""
    score: int = Field(ge=0)
    """The player's score after banking."""


class Hold(GameAction):
    """Bank the turn total into your score and pass the turn; reaching the target wins."""

    type: Literal[ActionType.HOLD] = ActionType.HOLD
    """The action tag."""
    player_id: str
    """The acting player."""
    metadata: HoldMetadata | None = None
    """What was banked; set by the game when the action is applied."""


class HydratedHold(Hold, HydratedAction[Hold, HydratedPigGameState, PigConfig]):
    """Hold's rules: only after rolling something this turn (unless ``hold_without_points``)."""

    def check(self, ctx: Ctx) -> None:
        if ctx.state.turn_total == 0 and not ctx.config.hold_without_points:
            raise IllegalActionError("nothing-to-hold", "roll at least once before holding")

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        state.moves += 1
        player = state.player(self.player_id)
        banked, state.turn_total = state.turn_total, 0
        player.score += banked
        self.metadata = HoldMetadata(banked=banked, score=player.score)

    @classmethod
    def enumerate(cls, state: HydratedPigGameState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]  # check refuses it with nothing to hold
