"""Playing many seeded games with bots and checking invariants after every action."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

from tabletop import games as registry
from tabletop._game import GameConfig
from tabletop._prng import Unkeyed
from tabletop.bots import MctsBot, RandomBot
from tabletop.simulation._batch import AnyDefinition, BotFactory, GamePlan, play_batch, simulation_key
from tabletop.simulation._invariants import Invariant, default_invariants
from tabletop.simulation._parallel import play_in_processes, play_on_ray
from tabletop.simulation._report import SimulationReport

__all__ = ["BOT_KINDS", "BotFactory", "bot_factory", "default_players", "simulate", "simulation_key"]

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
    prng_key: str | Unkeyed | None = None,
    jobs: int = 1,
    ray: str | None = None,
    config: GameConfig | None = None,
) -> SimulationReport:
    """Play ``games`` seeded games with a bot in every seat, checking invariants after each action.

    Game ``i`` is seeded ``seed + i`` (modulo 2**32) and every seat gets its own bot seed, so a
    run is reproducible. A game that needs a PRNG key (hidden information or chance) is keyed
    with :func:`simulation_key` of the run's seed and its index, so it plays the keyed stream a
    host plays and still replays. A game that breaks an invariant, gets stuck or raises is
    recorded with its problem and the run goes on.

    Games can be spread over ``jobs`` worker processes, or over a Ray cluster: game ``i`` is
    seeded the same way wherever it runs and the records come back in order, so the report is
    the same whatever the split (only the timings differ; the engine, bot and check seconds
    are summed over the workers).

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
        progress: Called with (games done, games) after each game (after each batch of
            games with several workers), in this process.
        prng_key: One key for every game, or :data:`tabletop.UNKEYED` to play from the seeds
            alone; None (default): :func:`simulation_key` for games that need a key.
        jobs: Worker processes (1: play in this process). They are forked, so a definition,
            bot factory or invariant defined anywhere (even in a test) can be used.
        ray: The address of a Ray cluster to play on instead (``"auto"``, ``"HOST:PORT"``
            or ``"ray://HOST:PORT"``; needs the ``tabletop-common[ray]`` extra, and the game
            installed on every node). If Ray is already initialized in this process, that
            connection is used and ``ray`` is only a flag.
        config: The game's config for every game (default: the config model's defaults).

    Raises:
        ValueError: ``games`` is negative, ``players`` is outside the game's range,
            ``bot`` is an unknown name, ``jobs`` is below 1, or both ``jobs`` and ``ray``
            are given.
        ImportError: ``ray`` is given and Ray is not installed.
        tabletop.games.UnknownGameError: No installed game has that name.
    """
    definition = registry.load(game) if isinstance(game, str) else game
    seats = default_players(definition) if players is None else players
    if games < 0:
        msg = f"games must not be negative, got {games}"
        raise ValueError(msg)
    if jobs < 1:
        msg = f"jobs must be at least 1, got {jobs}"
        raise ValueError(msg)
    if jobs > 1 and ray is not None:
        msg = "choose jobs (processes on this machine) or ray (a cluster), not both"
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
    report = SimulationReport(
        game=definition.name,
        logic_version=definition.logic_version,
        players=seats,
        bot=label,
        seed=seed,
        invariants=[check.name for check in checks],
        skipped=skipped,
    )
    plan = GamePlan(definition, seats, factory, tuple(checks), max_actions, seed, prng_key, config)
    began = time.perf_counter()
    if ray is not None:
        batches = play_on_ray(plan, games, ray, progress)
    elif jobs > 1:
        batches = play_in_processes(plan, games, jobs, progress)
    else:
        batches = [play_batch(plan, range(games), progress, games)]
    for batch in batches:
        report.records.extend(batch.records)
        report.engine_seconds += batch.engine_seconds
        report.bot_seconds += batch.bot_seconds
        report.check_seconds += batch.check_seconds
    report.elapsed = time.perf_counter() - began
    return report
