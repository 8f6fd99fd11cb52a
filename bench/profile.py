"""Profile random playouts of one game with pyinstrument: where engine time goes.

Usage: ``python bench/profile.py GAME [-n GAMES] [--players P] [--html FILE]``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pyinstrument import Profiler
from tabletop import AnyState, GameConfig, GameEngine
from tabletop.bots import RandomBot, playout
from tabletop.games import load
from tabletop.testing import make_game


def main(argv: list[str] | None = None) -> int:
    """Play ``-n`` random games under the profiler and print the call tree."""
    parser = argparse.ArgumentParser(description="profile random playouts of a game")
    parser.add_argument("game")
    parser.add_argument("-n", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--html", type=Path, default=None, help="also write an HTML report")
    args = parser.parse_args(argv)
    definition = load(args.game)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    profiler = Profiler(interval=0.0002)
    with profiler:
        for seed in range(args.n):
            game = make_game(definition, players=args.players, seed=seed)
            for _ in playout(engine, game, RandomBot(engine, seed)):
                pass
    print(profiler.output_text(unicode=True, show_all=False))
    if args.html is not None:
        args.html.write_text(profiler.output_html())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
