"""Roll: the player on turn rolls the die; the game decides the face (``RollDie``)."""

from typing import Literal, Self

from tabletop import GameAction, HydratedAction, IllegalActionError

from tabletop_pig.actions.roll_die import HydratedRollDie
from tabletop_pig.definition.actions import ActionType
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import Ctx, HydratedPigGameState


class Roll(GameAction):
    """Roll the die: the face comes in the ``RollDie`` chance point that follows."""

    type: Literal[ActionType.ROLL] = ActionType.ROLL
    """The action tag."""
    player_id: str
    """The acting player."""


class HydratedRoll(Roll, HydratedAction[Roll, HydratedPigGameState, PigConfig]):
    """Roll's rules: the player on turn may roll (unless ``must_hold_at_target`` says hold)."""

    def check(self, ctx: Ctx) -> None:
        state, config = ctx.state, ctx.config
        if (
            config.must_hold_at_target
            and state.player(self.player_id).score + state.turn_total >= config.target
        ):
            raise IllegalActionError("must-hold", "your score and turn total reach the target: hold")

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        state.moves += 1
        if not state.over(ctx.config):  # the horizon ends the game before the die lands
            ctx.add_system_action(HydratedRollDie, player_id=self.player_id)

    @classmethod
    def enumerate(cls, state: HydratedPigGameState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]
