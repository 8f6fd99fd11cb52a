"""Estimate what proposed engine changes would save, by replaying recorded random games.

Not part of the suite; compares the engine's paths on the same recorded actions.

- ``run``: ``engine.run(action_model, state, game)`` (re-validate the action, copy, apply).
- ``copy_state``: the state copy alone (what ``in_place`` saves).
- ``owned state``: ``engine.run(..., in_place=True)`` on a copy the caller owns (copied outside
  the timing): what a search rollout or a replay needs.
- ``legal_actions`` against the bare ``enumerate`` calls it makes (the rest is the handler's
  ``is_valid_action`` and each candidate's ``check``).

Usage: ``python bench/experiments.py [GAME ...] [-n GAMES]``.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from pathlib import Path

from tabletop import AnyState, GameAction, GameConfig, GameEngine, HydratedAction
from tabletop.bots import RandomBot, playout
from tabletop.games import available, load
from tabletop.testing import make_game

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tabletop_bench._timing import timed

Action = HydratedAction[GameAction, AnyState, GameConfig]


def _replay_us(name: str, games: int) -> dict[str, float]:
    definition = load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    seconds = {"run": 0.0, "copy_state": 0.0, "owned state": 0.0, "legal_actions": 0.0, "enumerate": 0.0}
    actions = 0
    for seed in range(games):
        game = make_game(definition, players=2 if definition.max_players >= 2 else 1, seed=seed)
        results = list(playout(engine, game, RandomBot(engine, seed)))
        steps: list[tuple[AnyState, Action]] = [
            (before.state, after.actions[0]) for before, after in itertools.pairwise(results)
        ]
        for state, recorded in steps:
            action = recorded.model_copy(update={"index": None})
            seconds["run"] += timed(lambda: engine.run(action, state, game))  # noqa: B023
            seconds["copy_state"] += timed(lambda: engine.copy_state(state))  # noqa: B023
            owned = engine.copy_state(state)
            seconds["owned state"] += timed(lambda: engine.run(action, owned, game, in_place=True))  # noqa: B023
            player = action.player_id or state.active_player_ids[0]
            seconds["legal_actions"] += timed(lambda: engine.legal_actions(state, player, game))  # noqa: B023

            def enumerate_only() -> None:
                for kind in engine.valid_action_types(state, player, game):  # noqa: B023
                    cls = definition.action_by_type[kind]
                    if cls.is_enumerable():
                        cls.enumerate(state, player)  # noqa: B023

            seconds["enumerate"] += timed(enumerate_only)
            actions += 1
    return {case: total / actions * 1e6 for case, total in seconds.items()}


def main(argv: list[str] | None = None) -> int:
    """Print µs/action of each variant and its saving against today's engine, per game."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=None)
    parser.add_argument("-n", type=int, default=100, help="recorded games per game (default 100)")
    parser.add_argument("--rounds", type=int, default=3, help="repeat and take the median (default 3)")
    args = parser.parse_args(argv)
    print(f"{'game':<14} {'variant':<16} {'µs/action':>10} {'vs run':>8}")
    for name in args.games or available():
        rounds = [_replay_us(name, args.n) for _ in range(args.rounds)]
        us = {case: statistics.median(r[case] for r in rounds) for case in rounds[0]}
        for case, value in us.items():
            base = us["legal_actions"] if case == "enumerate" else us["run"]
            print(f"{name:<14} {case:<16} {value:>10.2f} {value / base:>7.0%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
