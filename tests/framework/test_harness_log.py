"""The harness's log holds every recorded action, the ones recorded as the game starts included."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, Self

from tabletop import (
    GameAction,
    GameConfig,
    GameDefinition,
    GameState,
    HydratedAction,
    MachineContext,
    Model,
    PlayerState,
    StateHandler,
    TerminalHandler,
)
from tabletop.testing import GameHarness


class Phase(StrEnum):
    OPENING = "Opening"
    PLAYING = "Playing"
    OVER = "Over"


class Kind(StrEnum):
    OPENING_ROLL = "OpeningRoll"
    PASS = "Pass"


class OpeningState(GameState[PlayerState, Phase]):
    first: int = 0
    """What the opening roll showed."""


Ctx = MachineContext[OpeningState, GameConfig]


class RollMetadata(Model):
    face: int
    """The face rolled."""


class OpeningRoll(GameAction):
    system_only = True
    type: Literal[Kind.OPENING_ROLL] = Kind.OPENING_ROLL
    """Tag."""
    metadata: RollMetadata | None = None
    """What was rolled."""


class HydratedOpeningRoll(OpeningRoll, HydratedAction[OpeningRoll, OpeningState, GameConfig]):
    def apply(self, ctx: Ctx) -> None:
        ctx.state.first = ctx.prng.die_roll()
        self.metadata = RollMetadata(face=ctx.state.first)


class Pass(GameAction):
    type: Literal[Kind.PASS] = Kind.PASS
    """Tag."""
    player_id: str
    """Who passes."""


class HydratedPass(Pass, HydratedAction[Pass, OpeningState, GameConfig]):
    def apply(self, ctx: Ctx) -> None:
        pass

    @classmethod
    def enumerate(cls, state: OpeningState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id)]


class Opening(StateHandler[OpeningState, GameConfig]):
    accepts = (Kind.OPENING_ROLL,)
    transitions_to = (Phase.PLAYING,)

    def enter(self, ctx: Ctx) -> None:
        ctx.add_system_action(HydratedOpeningRoll)

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase:
        return Phase.PLAYING


class Playing(StateHandler[OpeningState, GameConfig]):
    accepts = (Kind.PASS,)
    transitions_to = (Phase.OVER,)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = [ctx.state.players[0].player_id]

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase:
        return Phase.OVER


class Over(TerminalHandler[OpeningState, GameConfig]):
    def enter(self, ctx: Ctx) -> None:
        ctx.end_game([])


definition: GameDefinition[OpeningState, GameConfig] = GameDefinition(
    name="opening-roll",
    state_type=OpeningState,
    machine_states=Phase,
    initial_state=Phase.OPENING,
    action_types=Kind,
    actions=[HydratedOpeningRoll, HydratedPass],
    handlers={Phase.OPENING: Opening(), Phase.PLAYING: Playing(), Phase.OVER: Over()},
    min_players=2,
    max_players=2,
    chance=True,
)


def test_the_log_starts_with_the_actions_recorded_at_the_start() -> None:
    harness = GameHarness(definition, players=2, seed=3)
    assert [(action.type, action.index) for action in harness.log] == [("OpeningRoll", 0)]
    roll = harness.last(HydratedOpeningRoll).metadata
    assert roll is not None and roll.face == harness.state.first
    harness.play(harness.action(HydratedPass, "p1"))
    assert [(action.type, action.index) for action in harness.log] == [("OpeningRoll", 0), ("Pass", 1)]
    assert [action.index for action in harness.log] == list(range(harness.state.action_count))
