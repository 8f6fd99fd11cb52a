"""Search-bot and simulation cases (issue 15): MCTS speed, and ``simulate`` over 1 and 2 processes."""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

from tabletop import UNKEYED, AnyState, GameConfig, GameEngine
from tabletop.bots import Bot, MctsBot, playout
from tabletop.games import available, load
from tabletop.simulation import simulate
from tabletop.testing import make_game

from tabletop_bench._cases import Row
from tabletop_bench._timing import Budget

__all__ = ["SEARCH_CASES"]

GO_FISH_ITERATIONS = 200
GALLERY_ITERATIONS = 300
TTT_SIMULATIONS = 2_000
SIMULATE_GAMES = 90
SIMULATE_ROUNDS = 3


def mcts_go_fish(budget: Budget) -> list[Row]:
    """One whole 2-player Go Fish game with an MCTS bot (200 iterations) in both seats."""
    iterations = GO_FISH_ITERATIONS if budget.name == "full" else 4
    case = f"MCTS go-fish game µs ({iterations} iterations)"
    if "go-fish" not in available():
        return [Row(case, "go-fish", None, note="n/a: go-fish is not installed")]
    definition = load("go-fish")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=1)
    bots: dict[str, Bot[AnyState, GameConfig]] = {
        seat.id: MctsBot(engine, iterations=iterations, seed=n + 1) for n, seat in enumerate(game.players)
    }
    started = time.perf_counter()
    results = list(playout(engine, game, bots, prng_key=UNKEYED))
    seconds = time.perf_counter() - started
    submitted = len(results) - 1
    note = f"{seconds:.1f} s, {submitted} submitted actions, {seconds / submitted * 1e3:.0f} ms/decision"
    return [Row(case, "go-fish", seconds * 1e6, note=f"{note}; target ≤ 5 s (issue 29)")]


def mcts_gallery_decision(budget: Budget) -> list[Row]:
    """One MCTS decision (300 iterations, leaves scored by the evaluator) opening a 3-player game."""
    iterations = GALLERY_ITERATIONS if budget.name == "full" else 10
    case = f"MCTS gallery decision µs ({iterations} iterations)"
    if "gallery" not in available():
        return [Row(case, "gallery", None, note="n/a: gallery is not installed")]
    definition = load("gallery")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=3, seed=1)
    state = engine.start(game, prng_key=UNKEYED).state
    samples = []
    for round_ in range(max(1, budget.rounds // 3)):
        bot = MctsBot(engine, iterations=iterations, seed=round_ + 1, max_rollout_actions=0)
        started = time.perf_counter()
        bot.evaluate(state, "p1", game)
        samples.append(time.perf_counter() - started)
    value = min(samples) * 1e6
    note = f"best of {len(samples)}, determinized from p1's view, no rollout; target ≤ 1 s"
    return [Row(case, "gallery", value, note=note)]


def mcts_simulations(budget: Budget) -> list[Row]:
    """Tic-tac-toe MCTS: microseconds per simulation (iteration) of a search from the empty board."""
    simulations = TTT_SIMULATIONS if budget.name == "full" else 50
    case = "MCTS tic-tac-toe µs/simulation"
    if "tic-tac-toe" not in available():
        return [Row(case, "tic-tac-toe", None, note="n/a: tic-tac-toe is not installed")]
    definition = load("tic-tac-toe")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=1)
    state = engine.start(game).state
    samples = []
    for round_ in range(max(1, budget.rounds // 3)):
        bot = MctsBot(engine, iterations=simulations, seed=round_ + 1)
        started = time.perf_counter()
        bot.evaluate(state, state.active_player_ids[0], game)
        samples.append((time.perf_counter() - started) / simulations)
    value = min(samples) * 1e6
    note = f"{1e6 / value:,.0f} simulations/s ({simulations} per search, best of {len(samples)})"
    return [Row(case, "tic-tac-toe", value, note=f"{note}; target ≥ 15,000/s (issue 29)")]


def simulate_jobs(budget: Budget) -> list[Row]:
    """``simulate`` (random bots, default invariants) in 1 and 2 processes: µs per game.

    The two are measured in alternation, ``SIMULATE_ROUNDS`` times, and the best of each is
    kept: on a shared machine, a round that another process slowed down does not decide.
    """
    name = "go-fish" if "go-fish" in available() else "tic-tac-toe"
    games = SIMULATE_GAMES if budget.name == "full" else 4
    rounds = SIMULATE_ROUNDS if budget.name == "full" else 1
    case = "simulate µs/game"
    load = _load()
    best = {1: math.inf, 2: math.inf}
    cores = {1: 0.0, 2: 0.0}
    ok = True
    for _ in range(rounds):
        for jobs in (1, 2):
            cpu, wall = _cpu_seconds(), time.perf_counter()
            report = simulate(name, games=games, seed=1, jobs=jobs, schemas=None)
            cpu, wall = _cpu_seconds() - cpu, time.perf_counter() - wall
            us = report.elapsed / games * 1e6
            if us < best[jobs]:
                best[jobs], cores[jobs] = us, cpu / wall
            ok = ok and report.ok
    one, two = best[1], best[2]
    problems = "" if ok else "; some games broke an invariant"
    # The cores the runs got: under load from other sessions (Linux shares CPU between sessions
    # first), two processes may get no more CPU than one, whatever simulate does.
    where = f"best of {rounds} alternating{load}; cores used: {cores[1]:.2f} (1 job), {cores[2]:.2f} (2 jobs)"
    return [
        Row(
            f"{case} (1 job)",
            name,
            one,
            note=f"{_rate(one)}, {games} games, invariants on, {where}{problems}",
        ),
        Row(
            f"{case} (2 jobs)",
            name,
            two,
            one,
            "1 job",
            f"{_rate(two)}; speed-up {one / two:.2f}x, target ≥ 1.7x (ratio ≤ 0.59)",
        ),
    ]


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished child processes (the workers)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _load() -> str:
    """The machine's load (1-minute average) before a measurement, as a note suffix."""
    try:
        return f"; load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores before"
    except OSError:  # pragma: no cover - a platform without load averages
        return ""


def _rate(us_per_game: float) -> str:
    return f"{1e6 / us_per_game:,.1f} games/s"


SEARCH_CASES: dict[str, Callable[[Budget], list[Row]]] = {
    "mcts-go-fish": mcts_go_fish,
    "mcts-tic-tac-toe": mcts_simulations,
    "mcts-gallery": mcts_gallery_decision,
    "simulate-jobs": simulate_jobs,
}
"""The search and simulation cases, in table order."""
