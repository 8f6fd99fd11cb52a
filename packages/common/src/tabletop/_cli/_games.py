"""``tabletop games`` and ``tabletop diagram``: what is installed and how each game flows."""

from __future__ import annotations

import argparse

from tabletop import games
from tabletop._cli._commands import Commands

__all__ = ["register"]


def _list(args: argparse.Namespace) -> int:
    for name in games.available():
        definition = games.load(name)
        seats = f"{definition.min_players}-{definition.max_players} players"
        print(f"{name}\t{definition.logic_version}\t{seats}")
    return 0


def _diagram(args: argparse.Namespace) -> int:
    print(games.load(args.game).diagram())
    return 0


def register(commands: Commands) -> None:
    """Add ``games`` and ``diagram``."""
    commands.add_parser("games", help="list the installed games").set_defaults(handler=_list)
    diagram = commands.add_parser("diagram", help="print a game's state graph as a mermaid diagram")
    diagram.add_argument("game")
    diagram.set_defaults(handler=_diagram)
