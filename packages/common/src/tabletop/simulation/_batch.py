"""Playing some games of a simulation run by index: the unit of work of every worker."""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState
from tabletop._prng import Unkeyed
from tabletop._seating import seated_game
from tabletop.bots import Bot
from tabletop.simulation._invariants import Invariant, InvariantError, Step, run_invariants
from tabletop.simulation._report import GameRecord

__all__ = [
    "AnyBot",
    "AnyDefinition",
    "AnyEngine",
    "Batch",
    "BotFactory",
    "GamePlan",
    "play_batch",
    "simulation_key",
]

AnyDefinition = GameDefinition[AnyState, GameConfig]
AnyEngine = GameEngine[AnyState, GameConfig]
AnyBot = Bot[AnyState, GameConfig]

BotFactory = Callable[[AnyEngine, int], AnyBot]
"""Makes the bot of one seat from the engine and a seed."""


def simulation_key(seed: int, game_index: int) -> str:
    """The PRNG key :func:`simulate` gives game ``game_index`` of a run seeded ``seed``.

    Derived from the two (BLAKE2b), so a run is reproducible and a game that needs a key plays
    the keyed stream a host plays. It is no secret: never host a game with it.
    """
    return hashlib.blake2b(f"tabletop simulate {seed} {game_index}".encode(), digest_size=16).hexdigest()


def _bot_seed(seed: int, game_index: int, seat: int) -> int:
    return (seed * 1_000_003 + game_index) * 64 + seat


class _Clock:
    __slots__ = ("bots", "checks", "engine")

    def __init__(self) -> None:
        self.engine = self.bots = self.checks = 0.0


def _play(
    definition: AnyDefinition,
    engine: AnyEngine,
    game: Game[GameConfig],
    bots: dict[str, AnyBot],
    invariants: Sequence[Invariant],
    max_actions: int,
    clock: _Clock,
    prng_key: str | Unkeyed | None,
) -> tuple[AnyState | None, int, str | None]:
    """Play one game; the last state, the submitted count and the problem, if any."""
    submitted, state = 0, None
    try:
        started = time.perf_counter()
        result = engine.start(game, prng_key=prng_key)
        checked = time.perf_counter()
        state = result.state
        run_invariants(invariants, Step(definition, game, result, None))
        clock.engine += checked - started
        clock.checks += time.perf_counter() - checked
        while state.result is None and submitted < max_actions:
            started = time.perf_counter()
            for player_id in state.active_player_ids:
                action = bots[player_id].choose(state, player_id, game)
                if action is not None:
                    break
            else:
                return state, submitted, f"stuck after {submitted} actions: no active player can act"
            ran = time.perf_counter()
            result = engine.run(action, state, game)
            submitted += 1
            checked = time.perf_counter()
            previous, state = state, result.state
            run_invariants(invariants, Step(definition, game, result, previous))
            clock.bots += ran - started
            clock.engine += checked - ran
            clock.checks += time.perf_counter() - checked
    except InvariantError as exc:
        return state, submitted, f"after {submitted} actions: invariant {exc}"
    except Exception as exc:  # a simulation reports whatever breaks a game and goes on
        return state, submitted, f"at action {submitted + 1}: {type(exc).__name__}: {exc}"
    return state, submitted, None


@dataclass(frozen=True, slots=True)
class GamePlan:
    """Everything a worker needs to play any game of a run by its index."""

    definition: AnyDefinition
    seats: int
    factory: BotFactory
    checks: tuple[Invariant, ...]
    max_actions: int
    seed: int
    prng_key: str | Unkeyed | None
    config: GameConfig | None = None


@dataclass(frozen=True, slots=True)
class Batch:
    """The records of some games of a run, in index order, and the time they took by kind."""

    records: list[GameRecord]
    engine_seconds: float
    bot_seconds: float
    check_seconds: float


def play_batch(
    plan: GamePlan,
    indices: range,
    progress: Callable[[int, int], None] | None = None,
    total: int = 0,
) -> Batch:
    """Play the games of ``plan`` with these indices (each seeded by its index alone).

    ``progress`` (if any) is called with (games done, ``total``) after each game.
    """
    definition = plan.definition
    engine: AnyEngine = GameEngine(definition)
    clock = _Clock()
    records: list[GameRecord] = []
    for done, index in enumerate(indices, start=1):
        game_seed = (plan.seed + index) & 0xFFFFFFFF
        table = seated_game(definition, players=plan.seats, seed=game_seed, config=plan.config)
        bots = {
            p.id: plan.factory(engine, _bot_seed(plan.seed, index, n)) for n, p in enumerate(table.players)
        }
        key = plan.prng_key
        if key is None and definition.requires_prng_key:
            key = simulation_key(plan.seed, index)
        state, submitted, problem = _play(
            definition, engine, table, bots, plan.checks, plan.max_actions, clock, key
        )
        records.append(
            GameRecord(
                index=index,
                seed=game_seed,
                outcome=_outcome(state, problem),
                actions=0 if state is None else state.action_count,
                submitted=submitted,
                problem=problem,
            )
        )
        if progress is not None:
            progress(done, total)
    return Batch(records, clock.engine, clock.bots, clock.checks)


def _outcome(state: AnyState | None, problem: str | None) -> str:
    if state is None or (problem is not None and state.result is None):
        return "error"
    if state.result is None:
        return "unfinished"
    if state.winning_player_ids:
        return "win " + "+".join(state.winning_player_ids)
    return state.result.value
