"""Hex against OpenSpiel's C++ ``hex`` (issue 24): random playouts per move, and an MCTS game.

Both sides of a ratio run in this process, in alternating games, so they see the same load.
"""

from __future__ import annotations

import importlib
import random
import time
from types import ModuleType

from tabletop import UNKEYED, AnyState, GameConfig, GameEngine
from tabletop.bots import Bot, MctsBot, RandomBot
from tabletop.games import available, load
from tabletop.testing import make_game

from tabletop_bench._cases import Row, _choose
from tabletop_bench._rollouts import rollout_game
from tabletop_bench._timing import Budget, timed

__all__ = ["HEX_CASES"]

MCTS_ITERATIONS = 500
MCTS_SECONDS = 120.0
"""A full run stops the MCTS game after this long and reports the seconds per decision and the
whole game projected from them (the target is a whole 11 x 11 game in 60 s)."""


def _pyspiel() -> ModuleType | None:
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        return None


def hex_vs_openspiel(budget: Budget) -> list[Row]:
    """Random 11 x 11 playouts: ours (legal actions, random choice, run in place) against pyspiel's."""
    case = "hex vs OpenSpiel: in-place playout"
    pyspiel = _pyspiel()
    if pyspiel is None or "hex" not in available():
        return [Row(case, "hex", None, note="n/a: pyspiel or hex is not installed")]
    definition = load("hex")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    theirs_game = pyspiel.load_game("hex")
    rng = random.Random(1)
    theirs = [0.0, 0]
    ours = [0.0, 0]
    rollout = [0.0, 0]

    def play_theirs() -> None:
        state = theirs_game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            theirs[1] += 1

    def play_ours(seed: int) -> None:
        game = make_game(definition, players=2, seed=seed)
        bot = RandomBot(engine, seed)
        state = engine.start(game, prng_key=UNKEYED).state
        while state.result is None:
            engine.run(_choose(bot, state, game), state, game, in_place=True)
            ours[1] += 1

    for seed in range(max(1, budget.playout_games // 10)):  # alternating games
        theirs[0] += timed(play_theirs)
        ours[0] += timed(lambda: play_ours(seed))  # noqa: B023 - called at once
        seconds, played = rollout_game(engine, make_game(definition, players=2, seed=seed), seed)
        rollout[0], rollout[1] = rollout[0] + seconds, rollout[1] + played
    theirs_us, ours_us = theirs[0] / theirs[1] * 1e6, ours[0] / ours[1] * 1e6
    return [
        Row("playout µs/action", "openspiel hex 11x11", theirs_us),
        Row(
            case,
            "hex 11x11",
            ours_us,
            theirs_us,
            "OpenSpiel hex (C++, from Python)",
            "legal actions + random choice + run(in_place=True); target ≤ 5x",
        ),
        Row(
            "hex vs OpenSpiel: rollout playout",
            "hex 11x11",
            rollout[0] / rollout[1] * 1e6,
            theirs_us,
            "OpenSpiel hex (C++, from Python)",
            "the framework's RandomRollout (what MCTS plays): one candidate built a move; target ≤ 5x",
        ),
    ]


def hex_mcts_game(budget: Budget) -> list[Row]:
    """An 11 x 11 game between two MCTS bots at 500 iterations (smoke: 3 x 3, 10 iterations)."""
    full = budget.name == "full"
    iterations = MCTS_ITERATIONS if full else 10
    size = 11 if full else 3
    case = f"MCTS hex {size}x{size} game µs ({iterations} iterations)"
    if "hex" not in available():
        return [Row(case, "hex", None, note="n/a: hex is not installed")]
    definition = load("hex")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    config = definition.config_type.model_validate({"board_size": size})
    game = make_game(definition, players=2, seed=1, config=config)
    bots: dict[str, Bot[AnyState, GameConfig]] = {
        seat.id: MctsBot(engine, iterations=iterations, seed=n + 1) for n, seat in enumerate(game.players)
    }
    state = engine.start(game, prng_key=UNKEYED).state
    decisions = 0
    started = time.perf_counter()
    while state.result is None and time.perf_counter() - started < (MCTS_SECONDS if full else 60.0):
        (player_id,) = state.active_player_ids
        action = bots[player_id].choose(state, player_id, game)
        assert action is not None
        state = engine.run(action, state, game).state
        decisions += 1
    seconds = time.perf_counter() - started
    per_decision = seconds / decisions
    if state.result is not None:
        note = f"whole game: {decisions} decisions, {per_decision:.2f} s each; target ≤ 60 s"
        return [Row(case, "hex", seconds * 1e6, note=note)]
    # Projected from the first decisions (the opening ones, the slowest: the most legal moves).
    projected = per_decision * 2 * size * size * 0.45
    note = (
        f"stopped after {decisions} decisions in {seconds:.0f} s ({per_decision:.1f} s each); "
        f"value projects a {round(2 * size * size * 0.45)}-decision game; target ≤ 60 s"
    )
    return [Row(case, "hex", projected * 1e6, note=note)]


HEX_CASES = {"hex-openspiel": hex_vs_openspiel, "hex-mcts": hex_mcts_game}
"""Hex's cases, after the search cases."""
