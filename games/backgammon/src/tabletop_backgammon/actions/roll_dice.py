"""RollDice: a chance point; the dice are rolled for the next player (the opening roll decides who
starts)."""

from typing import Annotated, Literal

from pydantic import Field
from tabletop import ChanceAction, ChanceOutcomes, Game, HydratedChanceAction, Model

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


class RollDice(ChanceAction):
    """A chance point: the dice are rolled for the next player."""

    type: Literal[ActionType.ROLL_DICE] = ActionType.ROLL_DICE
    """The action tag."""
    player_id: str | None = None
    """Unused: the dice are the game's; who moves with them is in the metadata."""
    outcome: int | None = Field(default=None, ge=0, lt=ROLL_OUTCOMES)
    """The roll, decided by the engine: an index of ``rules.ORDERED_ROLLS`` (OpenSpiel's chance
    outcome). The opening roll is one of the first 30 (no doubles; even: the first seat starts)."""
    metadata: RollDiceMetadata | None = None
    """What was rolled; set by the game when the action is applied."""


class HydratedRollDice(
    RollDice, HydratedChanceAction[RollDice, HydratedBackgammonGameState, BackgammonConfig]
):
    """RollDice's rules: the only place the game's randomness enters.

    The opening roll is one of 30 equally likely outcomes (a non-double, and who starts); every
    later roll one of 36 (two dice), for the opponent of the player who moved last.
    """

    def chances(self, ctx: Ctx) -> ChanceOutcomes:
        count = OPENING_OUTCOMES if ctx.state.mover is None else ROLL_OUTCOMES
        return [(outcome, 1) for outcome in range(count)]

    @classmethod
    def chance_space(cls, game: Game[BackgammonConfig]) -> list[int]:
        return list(range(ROLL_OUTCOMES))

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        outcome = 0 if self.outcome is None else self.outcome  # the engine always decides it first
        opening = state.mover is None
        mover = state.players[outcome % 2].player_id if opening else state.opponent(str(state.mover))
        dice = list(ORDERED_ROLLS[outcome])
        state.mover, state.dice, state.unused, state.double_half = mover, dice, list(dice), False
        ctx.start_turn_of(mover)
        self.metadata = RollDiceMetadata(dice=dice, mover=mover, opening=opening)
