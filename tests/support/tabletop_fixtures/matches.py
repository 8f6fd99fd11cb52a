"""Matches of an MCTS bot against random bots, runnable in a subprocess.

The bot-strength tests play hundreds of games. Under the test run's typeguard instrumentation
every engine call is about ten times slower, so those tests run the matches here, in a plain
interpreter: ``python -m tabletop_fixtures.matches GAME --players P --seat S ...`` prints one
JSON object per game.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import orjson
from tabletop import AnyState, GameConfig, GameEngine
from tabletop.bots import Bot, MctsBot, RandomBot, playout
from tabletop.games import load
from tabletop.testing import TEST_PRNG_KEY, make_game


def play(
    game: str,
    *,
    players: int,
    seat: int,
    games: int,
    seed: int,
    iterations: int,
    rollout: int = 1_000,
) -> list[dict[str, object]]:
    """Play ``games`` games with the MCTS bot at seat index ``seat`` and random bots elsewhere."""
    definition = load(game)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    outcomes: list[dict[str, object]] = []
    for index in range(games):
        table = make_game(definition, players=players, seed=seed + index)
        mcts_id = table.players[seat].id
        bots: dict[str, Bot[AnyState, GameConfig]] = {
            p.id: RandomBot(engine, seed * 7919 + index * 16 + n) for n, p in enumerate(table.players)
        }
        bots[mcts_id] = MctsBot(
            engine, iterations=iterations, seed=seed * 7919 + index, max_rollout_actions=rollout
        )
        key = TEST_PRNG_KEY if definition.requires_prng_key else None
        final = list(playout(engine, table, bots, prng_key=key))[-1].state
        outcomes.append(
            {
                "mcts": mcts_id,
                "result": None if final.result is None else final.result.value,
                "winners": final.winning_player_ids,
            }
        )
    return outcomes


def main(argv: Sequence[str] | None = None) -> int:
    """Play the match the arguments describe and print one JSON line per game."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seat", type=int, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--rollout", type=int, default=1_000, help="max_rollout_actions of the MCTS bot")
    args = parser.parse_args(argv)
    for outcome in play(
        args.game,
        players=args.players,
        seat=args.seat,
        games=args.games,
        seed=args.seed,
        iterations=args.iterations,
        rollout=args.rollout,
    ):
        sys.stdout.write(orjson.dumps(outcome).decode() + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
