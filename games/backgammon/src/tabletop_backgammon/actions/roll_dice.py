"""RollDice: the game rolls the two dice for the next player (the opening roll decides who starts)."""

from typing import Annotated, Literal

from pydantic import Field
from tabletop import GameAction, HydratedAction, Model

from tabletop_backgammon.components.rules import OPENING_OUTCOMES, ORDERED_ROLLS, ROLL_OUTCOMES
from tabletop_backgammon.definition.actions import ActionType
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.game_state import Ctx, Face, HydratedBackgammonGameState


class RollDiceMetadata(Model):
    """What the dice showed, filled in by the game."""

    dice: Annotated[list[Face], Field(min_length=2, max_length=2)]
    """The two dice, as rolled."""
    mover: str
    """The player who moves with them."""
    opening: bool
    """True for the opening roll: no doubles, and it decided who starts."""
    outcome: int = Field(ge=0, lt=ROLL_OUTCOMES)
    """The outcome's number, OpenSpiel's chance outcome (an index of ``rules.ORDERED_ROLLS``)."""


class RollDice(GameAction):
    """A system action: the dice are rolled for the next player."""

    system_only = True

    type: Literal[ActionType.ROLL_DICE] = ActionType.ROLL_DICE
    """The action tag."""
    player_id: str | None = None
    """Unused: the dice are the game's; who moves with them is in the metadata."""
    metadata: RollDiceMetadata | None = None
    """What was rolled; set by the game when the action is applied."""


class HydratedRollDice(RollDice, HydratedAction[RollDice, HydratedBackgammonGameState, BackgammonConfig]):
    """RollDice's rules: the only place the game draws randomness.

    The opening roll is one of 30 equally likely outcomes (a non-double, and who starts); every
    later roll one of 36 (two dice), for the opponent of the player who moved last.
    """

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        opening = state.mover is None
        if opening:
            outcome = ctx.prng.rand_int(OPENING_OUTCOMES)
            mover = state.players[outcome % 2].player_id
        else:
            outcome = ctx.prng.rand_int(ROLL_OUTCOMES)
            mover = state.opponent(str(state.mover))
        dice = list(ORDERED_ROLLS[outcome])
        state.mover, state.dice, state.unused, state.double_half = mover, dice, list(dice), False
        ctx.start_turn_of(mover)
        self.metadata = RollDiceMetadata(dice=dice, mover=mover, opening=opening, outcome=outcome)
