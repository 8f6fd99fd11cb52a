"""Playing many seeded games with bots and checking invariants after every action."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tabletop import games as registry
from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState
from tabletop.bots import Bot, MctsBot, RandomBot
from tabletop.simulation._invariants import (
    Invariant,
    InvariantError,
    Step,
    default_invariants,
    run_invariants,
)
from tabletop.simulation._report import GameRecord, SimulationReport
from tabletop.testing import make_game

__all__ = ["BOT_KINDS", "BotFactory", "bot_factory", "default_players", "simulate"]

AnyDefinition = GameDefinition[AnyState, GameConfig]
AnyEngine = GameEngine[AnyState, GameConfig]
AnyBot = Bot[AnyState, GameConfig]

BotFactory = Callable[[AnyEngine, int], AnyBot]
"""Makes the bot of one seat from the engine and a seed."""

BOT_KINDS = ("random", "mcts")
"""The bots :func:`bot_factory` knows by name."""


def bot_factory(kind: str, *, iterations: int = 200) -> BotFactory:
    """The factory of a bot known by name: ``random`` or ``mcts`` (with ``iterations``).

    Raises:
        ValueError: ``kind`` is not one of :data:`BOT_KINDS`.
    """
    if kind == "random":
        return lambda engine, seed: RandomBot(engine, seed)
    if kind == "mcts":
        return lambda engine, seed: MctsBot(engine, iterations=iterations, seed=seed)
    msg = f"unknown bot {kind!r}; choose one of {', '.join(BOT_KINDS)}"
    raise ValueError(msg)


def default_players(definition: AnyDefinition) -> int:
    """Two seats, or the game's minimum if it needs more (and at most its maximum)."""
    return min(max(2, definition.min_players), definition.max_players)


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
) -> tuple[AnyState | None, int, str | None]:
    """Play one game; the last state, the submitted count and the problem, if any."""
    submitted, state = 0, None
    try:
        started = time.perf_counter()
        result = engine.start(game)
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


def _outcome(state: AnyState | None, problem: str | None) -> str:
    if state is None or (problem is not None and state.result is None):
        return "error"
    if state.result is None:
        return "unfinished"
    if state.winning_player_ids:
        return "win " + "+".join(state.winning_player_ids)
    return state.result.value


def simulate(
    game: str | AnyDefinition,
    *,
    games: int,
    seed: int = 0,
    players: int | None = None,
    bot: str | BotFactory = "random",
    iterations: int = 200,
    invariants: Sequence[Invariant] | None = None,
    schemas: Path | None = Path("schemas"),
    max_actions: int = 10_000,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationReport:
    """Play ``games`` seeded games with a bot in every seat, checking invariants after each action.

    Game ``i`` is seeded ``seed + i`` (modulo 2**32) and every seat gets its own bot seed, so a
    run is reproducible. A game that breaks an invariant, gets stuck or raises is recorded with
    its problem and the run goes on.

    Args:
        game: An installed game's name or a definition.
        games: How many games to play.
        seed: The run's seed.
        players: Seats per game (default :func:`default_players`).
        bot: ``"random"``, ``"mcts"`` or a factory making one seat's bot.
        iterations: MCTS iterations per decision, for ``bot="mcts"``.
        invariants: The checks to run (default :func:`default_invariants`).
        schemas: Where the exported schemas live, for the JSON Schema check (None: skip it).
        max_actions: Submitted actions after which a game counts as unfinished.
        progress: Called with (games done, games) after each game.

    Raises:
        ValueError: ``games`` is negative, ``players`` is outside the game's range, or
            ``bot`` is an unknown name.
        tabletop.games.UnknownGameError: No installed game has that name.
    """
    definition = registry.load(game) if isinstance(game, str) else game
    seats = default_players(definition) if players is None else players
    if games < 0:
        msg = f"games must not be negative, got {games}"
        raise ValueError(msg)
    if not definition.min_players <= seats <= definition.max_players:
        msg = (
            f"{definition.name} takes {definition.min_players}..{definition.max_players} players, not {seats}"
        )
        raise ValueError(msg)
    factory = bot_factory(bot, iterations=iterations) if isinstance(bot, str) else bot
    label = bot if isinstance(bot, str) else getattr(bot, "__name__", "custom")
    if invariants is None:
        checks, skipped = default_invariants(definition, schemas=schemas)
    else:
        checks, skipped = list(invariants), []
    engine: AnyEngine = GameEngine(definition)
    report = SimulationReport(
        game=definition.name,
        logic_version=definition.logic_version,
        players=seats,
        bot=label,
        seed=seed,
        invariants=[check.name for check in checks],
        skipped=skipped,
    )
    clock = _Clock()
    began = time.perf_counter()
    for index in range(games):
        game_seed = (seed + index) & 0xFFFFFFFF
        table = make_game(definition, players=seats, seed=game_seed)
        bots = {p.id: factory(engine, _bot_seed(seed, index, n)) for n, p in enumerate(table.players)}
        state, submitted, problem = _play(definition, engine, table, bots, checks, max_actions, clock)
        report.records.append(
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
            progress(index + 1, games)
    report.elapsed = time.perf_counter() - began
    report.engine_seconds, report.bot_seconds, report.check_seconds = clock.engine, clock.bots, clock.checks
    return report
