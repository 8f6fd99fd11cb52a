"""A small game that exercises every engine feature: system actions, cascades, rollback."""

import types
from enum import StrEnum
from typing import Literal, Self

from pydantic import Field
from tabletop import (
    GameAction,
    GameConfig,
    GameDefinition,
    GameResult,
    GameState,
    HydratedAction,
    IllegalActionError,
    MachineContext,
    PlayerState,
    StateHandler,
    TerminalHandler,
)


class Phase(StrEnum):
    COUNTING = "Counting"
    PAUSED = "Paused"
    DONE = "Done"


class Kind(StrEnum):
    INCREMENT = "Increment"
    CASCADE = "Cascade"
    TICK = "Tick"
    PAUSE = "Pause"
    RESUME = "Resume"
    FINISH = "Finish"
    BAD_MOVE = "BadMove"
    EXPLODE = "Explode"


class CounterConfig(GameConfig):
    limit: int = 100
    """The count may not pass this."""


class CounterPlayer(PlayerState):
    increments: int = 0
    """How many increments this player made."""


class CounterState(GameState[CounterPlayer, Phase]):
    count: int = 0
    """The shared count."""
    enters: int = 0
    """How many times any state was entered."""
    ticks: int = 0
    """How many system ticks ran."""


Ctx = MachineContext[CounterState, CounterConfig]


class Increment(GameAction):
    type: Literal[Kind.INCREMENT] = Kind.INCREMENT
    """Tag."""
    player_id: str
    """Who increments."""
    by: int = Field(default=1, ge=1, le=10)
    """How much."""


class HydratedIncrement(Increment, HydratedAction[Increment, CounterState, CounterConfig]):
    def check(self, ctx: Ctx) -> None:
        if ctx.state.count + self.by > ctx.config.limit:
            raise IllegalActionError("over-limit", "the count would pass the limit", path="by")

    def apply(self, ctx: Ctx) -> None:
        ctx.state.count += self.by
        ctx.state.player(self.player_id).increments += 1

    @classmethod
    def enumerate(cls, state: CounterState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id, by=by) for by in (1, 2)]


class Cascade(GameAction):
    type: Literal[Kind.CASCADE] = Kind.CASCADE
    """Tag."""
    ticks: int = Field(ge=0)
    """How many system ticks to queue."""


class HydratedCascade(Cascade, HydratedAction[Cascade, CounterState, CounterConfig]):
    def apply(self, ctx: Ctx) -> None:
        for _ in range(self.ticks):
            ctx.add_system_action(HydratedTick)


class Tick(GameAction):
    type: Literal[Kind.TICK] = Kind.TICK
    """Tag."""


class HydratedTick(Tick, HydratedAction[Tick, CounterState, CounterConfig]):
    def apply(self, ctx: Ctx) -> None:
        ctx.state.ticks += 1


def _simple(
    kind: Kind,
) -> tuple[type[GameAction], type[HydratedAction[GameAction, CounterState, CounterConfig]]]:
    namespace = {"__annotations__": {"type": Literal[kind]}, "type": kind, "__module__": __name__}
    plain = types.new_class(kind.value, (GameAction,), exec_body=lambda ns: ns.update(namespace))
    bases = (plain, HydratedAction[plain, CounterState, CounterConfig])  # type: ignore[valid-type]
    hydrated = types.new_class(
        f"Hydrated{kind.value}", bases, exec_body=lambda ns: ns.update(__module__=__name__)
    )
    return plain, hydrated


Pause, HydratedPause = _simple(Kind.PAUSE)
Resume, HydratedResume = _simple(Kind.RESUME)
Finish, HydratedFinish = _simple(Kind.FINISH)
BadMove, HydratedBadMove = _simple(Kind.BAD_MOVE)


class Explode(GameAction):
    type: Literal[Kind.EXPLODE] = Kind.EXPLODE
    """Tag."""


class HydratedExplode(Explode, HydratedAction[Explode, CounterState, CounterConfig]):
    def apply(self, ctx: Ctx) -> None:
        ctx.state.count += 1000
        ctx.prng.random()
        msg = "boom"
        raise RuntimeError(msg)


class Counting(StateHandler[CounterState, CounterConfig]):
    accepts = (Kind.INCREMENT, Kind.CASCADE, Kind.TICK, Kind.PAUSE, Kind.FINISH, Kind.EXPLODE)
    transitions_to = (Phase.COUNTING, Phase.PAUSED, Phase.DONE)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.enters += 1
        ctx.state.active_player_ids = [p.player_id for p in ctx.state.players]

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase:
        if action.type == Kind.PAUSE:
            return Phase.PAUSED
        if action.type == Kind.FINISH:
            return Phase.DONE
        return Phase.COUNTING


class Paused(StateHandler[CounterState, CounterConfig]):
    accepts = (Kind.RESUME, Kind.BAD_MOVE)
    transitions_to = (Phase.COUNTING,)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.enters += 1

    def on_action(self, action: GameAction, ctx: Ctx) -> Phase:
        return Phase.DONE if action.type == Kind.BAD_MOVE else Phase.COUNTING


class Done(TerminalHandler[CounterState, CounterConfig]):
    def enter(self, ctx: Ctx) -> None:
        ctx.state.result = GameResult.DRAW
        ctx.state.active_player_ids = []


ACTIONS = [
    HydratedIncrement,
    HydratedCascade,
    HydratedTick,
    HydratedPause,
    HydratedResume,
    HydratedFinish,
    HydratedBadMove,
    HydratedExplode,
]
HANDLERS = {Phase.COUNTING: Counting(), Phase.PAUSED: Paused(), Phase.DONE: Done()}


def make_definition(**overrides: object) -> GameDefinition[CounterState, CounterConfig]:
    """The counter game's definition; keyword overrides build broken variants."""
    arguments: dict[str, object] = {
        "name": "counter",
        "state_type": CounterState,
        "config_type": CounterConfig,
        "machine_states": Phase,
        "initial_state": Phase.COUNTING,
        "action_types": Kind,
        "actions": ACTIONS,
        "handlers": HANDLERS,
        "min_players": 1,
        "max_players": 4,
    }
    arguments.update(overrides)
    return GameDefinition(**arguments)  # type: ignore[arg-type, type-var]
