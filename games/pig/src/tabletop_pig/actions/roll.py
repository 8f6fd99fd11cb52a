"""Roll: the player on turn rolls the die; a 1 loses the turn total and ends the turn."""

from typing import Literal, Self

from pydantic import Field
from tabletop import GameAction, HydratedAction, Model

from tabletop_pig.definition.actions import ActionType
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import Ctx, HydratedPigGameState


class RollMetadata(Model):
    """What a Roll rolled, filled in by the game."""

    face: int = Field(ge=1, le=6)
    """The face the die came up on."""
    turn_total: int = Field(ge=0)
    """The turn total after the roll: 0 if it busted."""
    busted: bool
    """True if the die came up 1: the turn total is lost and the turn passes."""


class Roll(GameAction):
    """Roll the die: 2 to 6 adds to the turn total, 1 loses it and passes the turn."""

    type: Literal[ActionType.ROLL] = ActionType.ROLL
    """The action tag."""
    player_id: str
    """The acting player."""
    metadata: RollMetadata | None = None
    """What was rolled; set by the game when the action is applied."""


class HydratedRoll(Roll, HydratedAction[Roll, HydratedPigGameState, PigConfig]):
    """Roll's rules: the player on turn may always roll; the face comes from the state's PRNG."""

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        face = state.die.roll(ctx.prng)
        state.turn_total = 0 if face == 1 else state.turn_total + face
        self.metadata = RollMetadata(face=face, turn_total=state.turn_total, busted=face == 1)

    @classmethod
    def enumerate(cls, state: HydratedPigGameState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]
