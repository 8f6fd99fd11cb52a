"""Pig's state and its queries."""

from pydantic import Field
from tabletop import GameState, Hydrated, MachineContext, StateHandler
from tabletop.components import Die, HydratedDie

from tabletop_pig.definition.states import MachineState
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.player_state import PigPlayerState


class PigGameState(GameState[PigPlayerState, MachineState]):
    """Pig's state: the die and the points of the turn in progress; scores are on the players."""

    die: Die = Field(default_factory=Die)
    """The six-sided die, showing the last face rolled (null before the first roll)."""
    turn_total: int = Field(default=0, ge=0)
    """Points rolled this turn and not yet banked: lost on a 1, added to the score on a hold."""
    moves: int = Field(default=0, ge=0)
    """Rolls and holds played so far (the config's ``horizon`` bounds them)."""


class HydratedPigGameState(PigGameState, Hydrated[PigGameState]):
    """Pig's state with its queries."""

    die: HydratedDie = Field(default_factory=HydratedDie)
    """The six-sided die, showing the last face rolled (null before the first roll)."""

    def winner(self, target: int) -> str | None:
        """The player who has banked ``target`` points or more, if any."""
        return next((p.player_id for p in self.players if p.score >= target), None)

    def over(self, config: PigConfig) -> bool:
        """True once someone has banked the target, or the moves reached the horizon."""
        return self.winner(config.target) is not None or 0 < config.horizon <= self.moves


Ctx = MachineContext[HydratedPigGameState, PigConfig]
"""What handlers and actions see: the working state, the game, the PRNG."""
Handler = StateHandler[HydratedPigGameState, PigConfig]
"""The base class of Pig's state handlers."""
