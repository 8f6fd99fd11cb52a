"""Backgammon against OpenSpiel's C++ ``backgammon`` driven from Python in the same run, and an
MCTS decision (issue 24)."""

from __future__ import annotations

import gc
import importlib
import random
import time
from collections.abc import Callable

from tabletop import UNKEYED, AnyState, GameConfig, GameEngine
from tabletop.bots import MctsBot, RandomBot
from tabletop.games import available, load
from tabletop.testing import make_game

from tabletop_bench._cases import Row
from tabletop_bench._timing import Budget

__all__ = ["BACKGAMMON_CASES"]

MCTS_ITERATIONS = 1_000
MCTS_ROLLOUT = 10
"""Actions a rollout plays before the race evaluator scores it."""


def _ours(engine: GameEngine[AnyState, GameConfig], seed: int) -> tuple[float, int, int]:
    """One random game, in place: seconds, player actions (checker moves and passes), and the
    halves of turns they played (what OpenSpiel counts as moves)."""
    definition = engine.definition
    game = make_game(definition, players=2, seed=seed)
    bot = RandomBot(engine, seed)
    started = time.perf_counter()
    state = engine.start(game, prng_key=UNKEYED).state
    actions = 0
    halves = 0  # OpenSpiel's moves: a half of a turn (up to two checkers), or a pass
    while state.result is None:
        (player,) = state.active_player_ids
        halves += len(getattr(state, "unused", ())) == 2
        choice = bot.choose(state, player, game)
        assert choice is not None
        engine.run(choice, state, game, in_place=True)
        actions += 1
    seconds = time.perf_counter() - started
    return seconds, actions, halves


def _theirs(pyspiel: object, rng: random.Random) -> tuple[float, int]:
    """One random game of pyspiel's backgammon: seconds, player actions (each moves two checkers)."""
    game = pyspiel.load_game("backgammon")  # type: ignore[attr-defined]
    started = time.perf_counter()
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
    return time.perf_counter() - started, actions


def playout(budget: Budget) -> list[Row]:
    """Random playouts of backgammon here and in pyspiel, alternating games, per move and per game."""
    case = "backgammon vs OpenSpiel: playout"
    if "backgammon" not in available():
        return [Row(case, "backgammon", None, note="n/a: backgammon is not installed")]
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError as exc:
        return [Row(case, "backgammon", None, note=f"n/a: {exc}")]
    engine: GameEngine[AnyState, GameConfig] = GameEngine(load("backgammon"))
    rng = random.Random(1)
    games = max(2, min(budget.playout_games, 30))
    ours = [0.0, 0, 0]  # seconds, actions, halves
    theirs = [0.0, 0]
    for seed in range(games):  # alternating: both under the same conditions
        seconds, actions, halves = _ours(engine, seed)
        ours[0], ours[1], ours[2] = ours[0] + seconds, ours[1] + actions, ours[2] + halves
        seconds, actions = _theirs(pyspiel, rng)
        theirs[0], theirs[1] = theirs[0] + seconds, theirs[1] + actions
        gc.collect()
    label = "OpenSpiel backgammon (C++, from Python)"
    per_move_ours = ours[0] / ours[2] * 1e6
    per_action_theirs = theirs[0] / theirs[1] * 1e6
    return [
        Row("playout µs/move", "openspiel backgammon", per_action_theirs, note="one move: two checkers"),
        Row(
            "backgammon vs OpenSpiel: playout µs/move",
            "backgammon",
            per_move_ours,
            per_action_theirs,
            label,
            f"per move (half a turn: up to two checkers, a roll; ours {ours[1] / ours[2]:.2f} actions "
            f"a move); {games} games each; target ≤ 3×",
        ),
        Row(
            "backgammon playout µs/checker action",
            "backgammon",
            ours[0] / ours[1] * 1e6,
            note="legal actions + random bot + run(in_place=True), one checker per action",
        ),
    ]


def mcts_decision(budget: Budget) -> list[Row]:
    """One MCTS decision (1,000 iterations, rollouts of 10 actions scored by the race evaluator)."""
    iterations = MCTS_ITERATIONS if budget.name == "full" else 20
    case = f"MCTS backgammon decision µs ({iterations} iterations)"
    if "backgammon" not in available():
        return [Row(case, "backgammon", None, note="n/a: backgammon is not installed")]
    definition = load("backgammon")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=1)
    state = engine.start(game, prng_key=UNKEYED).state
    (player,) = state.active_player_ids
    samples = []
    for round_ in range(max(1, budget.rounds // 3)):
        bot = MctsBot(engine, iterations=iterations, seed=round_ + 1, max_rollout_actions=MCTS_ROLLOUT)
        started = time.perf_counter()
        bot.evaluate(state, player, game)
        samples.append(time.perf_counter() - started)
    note = f"best of {len(samples)}, the opening position, rollouts of {MCTS_ROLLOUT} actions; target ≤ 2 s"
    return [Row(case, "backgammon", min(samples) * 1e6, note=note)]


BACKGAMMON_CASES: dict[str, Callable[[Budget], list[Row]]] = {
    "backgammon-playout": playout,
    "mcts-backgammon": mcts_decision,
}
"""Backgammon's cases, in table order."""
