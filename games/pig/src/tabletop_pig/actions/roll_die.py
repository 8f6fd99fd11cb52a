"""RollDie: the chance point of a roll; a 1 loses the turn total and ends the turn."""

from typing import Literal

from pydantic import Field
from tabletop import ChanceAction, ChanceOutcomes, Game, HydratedChanceAction, Model

from tabletop_pig.definition.actions import ActionType
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import Ctx, HydratedPigGameState


class RollDieMetadata(Model):
    """What the face did, filled in by the game."""

    turn_total: int = Field(ge=0)
    """The turn total after the roll: 0 if it busted."""
    busted: bool
    """True if the die came up 1: the turn total is lost and the turn passes."""


class RollDie(ChanceAction):
    """A system action, a chance point: the die lands on a face, each equally likely."""

    type: Literal[ActionType.ROLL_DIE] = ActionType.ROLL_DIE
    """The action tag."""
    player_id: str | None = None
    """The player who rolled; the game always sets it."""
    outcome: int | None = Field(default=None, ge=1)
    """The face the die came up on (1 to the config's ``dice_outcomes``); decided by the engine."""
    metadata: RollDieMetadata | None = None
    """What the face did; set by the game when the action is applied."""


class HydratedRollDie(RollDie, HydratedChanceAction[RollDie, HydratedPigGameState, PigConfig]):
    """The die's faces are equally likely; 2 and up add to the turn total, a 1 busts."""

    def chances(self, ctx: Ctx) -> ChanceOutcomes:
        return [(face, 1) for face in range(1, ctx.config.dice_outcomes + 1)]

    @classmethod
    def chance_space(cls, game: Game[PigConfig]) -> list[int]:
        return list(range(1, game.config.dice_outcomes + 1))

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        face = self.outcome
        assert face is not None  # decided by the engine before apply
        state.die.set_face(face)
        state.turn_total = 0 if face == 1 else state.turn_total + face
        self.metadata = RollDieMetadata(turn_total=state.turn_total, busted=face == 1)
