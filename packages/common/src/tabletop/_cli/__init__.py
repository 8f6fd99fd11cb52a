"""The ``tabletop`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tabletop import games
from tabletop._cli._play import demo, play
from tabletop._errors import TabletopError

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop", description="Typed board-game state machines.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    commands.add_parser("games", help="list the installed games")

    for name, text in (("demo", "play a game with random legal actions and print its log"),
                       ("play", "play a game at the terminal")):
        sub = commands.add_parser(name, help=text)
        sub.add_argument("game", nargs="?" if name == "demo" else None, default="sample")
        sub.add_argument("--seed", type=int, default=42, help="the game's PRNG seed (default 42)")
        sub.add_argument("--players", type=int, default=None, help="number of seats")
        if name == "play":
            sub.add_argument("--seat", action="append", default=[], metavar="human|bot",
                             help="who sits in each seat, in order (default: human, then bots)")

    diagram = commands.add_parser("diagram", help="print a game's state graph as mermaid")
    diagram.add_argument("game")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tabletop`` command; returns the process exit code."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "games":
            for name in games.available():
                definition = games.load(name)
                print(f"{name}\t{definition.logic_version}\t{definition.min_players}-{definition.max_players} players")
        elif args.command == "diagram":
            print(games.load(args.game).diagram())
        elif args.command == "demo":
            demo(args.game, seed=args.seed, players=args.players, out=sys.stdout)
        elif args.command == "play":
            play(args.game, seed=args.seed, players=args.players, seats=args.seat, stdin=sys.stdin, out=sys.stdout)
    except (TabletopError, ValueError) as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 2
    return 0
