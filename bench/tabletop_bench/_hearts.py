"""Hearts against OpenSpiel's ``hearts``: random playouts of one deal, in this process, paired."""

from __future__ import annotations

import importlib
import random

from tabletop import UNKEYED, AnyState, GameConfig, GameEngine
from tabletop.bots import RandomBot
from tabletop.games import load
from tabletop.testing import make_game

from tabletop_bench._cases import Row
from tabletop_bench._rollouts import rollout_game
from tabletop_bench._timing import Budget, timed

__all__ = ["HEARTS_CASES"]

AnyEngine = GameEngine[AnyState, GameConfig]


def hearts_vs_openspiel(budget: Budget) -> list[Row]:
    """One deal of random play (default options), ours and pyspiel's C++ ``hearts`` driven from Python.

    Both loops pick a random legal action for the player to move and apply it; OpenSpiel's chance
    nodes (the pass direction and the 52 cards) are drawn by their probabilities, ours are the
    engine's declared chance points inside ``engine.run``. Per move counts each side's own player
    moves (OpenSpiel passes one card at a time: 64 a deal with a pass; ours passes three at once: 56).
    """
    try:
        pyspiel = importlib.import_module("pyspiel")
        definition = load("hearts")
    except (ImportError, LookupError) as exc:
        return [Row("hearts vs OpenSpiel: playout", "hearts", None, note=f"n/a: {exc}")]
    engine: AnyEngine = GameEngine(definition)
    config = definition.config_type.model_validate({"target_score": 1})  # one deal, as OpenSpiel plays
    game_os = pyspiel.load_game("hearts")
    rng = random.Random(1)
    theirs = [0.0, 0, 0]  # seconds, player moves, deals
    ours = [0.0, 0, 0]
    rollout = [0.0, 0]  # seconds, player moves

    def their_deal() -> None:
        state = game_os.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
            else:
                action = rng.choice(state.legal_actions())
                theirs[1] += 1
            state.apply_action(action)

    def our_deal(seed: int) -> None:
        game = make_game(definition, players=4, seed=seed, config=config)
        bot = RandomBot(engine, seed)
        state = engine.start(game, prng_key=UNKEYED).state
        while state.result is None:
            action = next(a for p in state.active_player_ids if (a := bot.choose(state, p, game)) is not None)
            state = engine.run(action, state, game).state
            ours[1] += 1

    for seed in range(max(2, budget.playout_games)):  # alternating: both under the same load
        theirs[0] += timed(their_deal)
        theirs[2] += 1
        ours[0] += timed(lambda: our_deal(seed))  # noqa: B023 - called at once
        ours[2] += 1
        seconds, played = rollout_game(
            engine, make_game(definition, players=4, seed=seed, config=config), seed
        )
        rollout[0], rollout[1] = rollout[0] + seconds, rollout[1] + played
    label = "OpenSpiel hearts (C++ from Python)"
    per_deal_theirs = theirs[0] / theirs[2] * 1e6
    return [
        Row("playout µs/move", "openspiel hearts", theirs[0] / theirs[1] * 1e6),
        Row(
            "hearts vs OpenSpiel: playout µs/move",
            "hearts",
            ours[0] / ours[1] * 1e6,
            theirs[0] / theirs[1] * 1e6,
            label,
            "legal actions + random choice + run; chance points inside run; target 3x not reached",
        ),
        Row(
            "hearts vs OpenSpiel: playout µs/deal",
            "hearts",
            ours[0] / ours[2] * 1e6,
            per_deal_theirs,
            label,
            "one whole deal, pass and 13 tricks",
        ),
        Row(
            "hearts vs OpenSpiel: rollout playout µs/move",
            "hearts",
            rollout[0] / rollout[1] * 1e6,
            theirs[0] / theirs[1] * 1e6,
            label,
            "the framework's RandomRollout (what MCTS plays), chance points inside; target ≤ 3x",
        ),
    ]


HEARTS_CASES = {"hearts-openspiel": hearts_vs_openspiel}
"""Hearts' rows (issue 24)."""
