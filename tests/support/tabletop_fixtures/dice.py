"""A one-decision dice game with chance in the middle of play and no hidden information.

``p1`` either holds (a draw) or rolls a die from the state's PRNG: a six wins, anything else
loses. Rolling is worth 1/6 and holding 1/2, so a player who cannot see the next roll holds;
one who could read the PRNG would roll exactly when the next face is a six.
"""

from enum import StrEnum
from typing import Literal, Self

from tabletop import (
    GameAction,
    GameConfig,
    GameDefinition,
    GameResult,
    GameState,
    HydratedAction,
    MachineContext,
    Model,
    PlayerState,
    StateHandler,
    TerminalHandler,
)


class Phase(StrEnum):
    CHOOSING = "Choosing"
    OVER = "Over"


class Kind(StrEnum):
    ROLL = "Roll"
    HOLD = "Hold"


class DiceConfig(GameConfig):
    sides: int = 6
    """Faces of the die; the highest face wins."""


class DicePlayer(PlayerState):
    pass


class DiceState(GameState[DicePlayer, Phase]):
    face: int | None = None
    """The face rolled, once rolled."""


Ctx = MachineContext[DiceState, DiceConfig]


class RollMetadata(Model):
    face: int
    """The face rolled."""


class Roll(GameAction):
    type: Literal[Kind.ROLL] = Kind.ROLL
    """Tag."""
    player_id: str
    """Who rolls."""
    metadata: RollMetadata | None = None
    """What was rolled."""


class HydratedRoll(Roll, HydratedAction[Roll, DiceState, DiceConfig]):
    def apply(self, ctx: Ctx) -> None:
        face = ctx.prng.die_roll(ctx.config.sides)
        ctx.state.face = face
        self.metadata = RollMetadata(face=face)
        others = [p.player_id for p in ctx.state.players if p.player_id != self.player_id]
        ctx.state.result = GameResult.WIN
        ctx.state.winning_player_ids = [self.player_id] if face == ctx.config.sides else others

    @classmethod
    def enumerate(cls, state: DiceState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]


class Hold(GameAction):
    type: Literal[Kind.HOLD] = Kind.HOLD
    """Tag."""
    player_id: str
    """Who holds."""


class HydratedHold(Hold, HydratedAction[Hold, DiceState, DiceConfig]):
    def apply(self, ctx: Ctx) -> None:
        ctx.state.result = GameResult.DRAW

    @classmethod
    def enumerate(cls, state: DiceState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]


class Choosing(StateHandler[DiceState, DiceConfig]):
    accepts = (Kind.ROLL, Kind.HOLD)
    transitions_to = (Phase.OVER,)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = [ctx.state.players[0].player_id]

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase:
        return Phase.OVER


class Over(TerminalHandler[DiceState, DiceConfig]):
    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = []


definition: GameDefinition[DiceState, DiceConfig] = GameDefinition(
    name="dice",
    state_type=DiceState,
    config_type=DiceConfig,
    machine_states=Phase,
    initial_state=Phase.CHOOSING,
    action_types=Kind,
    actions=[HydratedRoll, HydratedHold],
    handlers={Phase.CHOOSING: Choosing(), Phase.OVER: Over()},
    min_players=2,
    max_players=2,
    chance=True,
)
