"""The ``tabletop`` command. Each subcommand lives in its own module with a ``register``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import entry_points

from tabletop._cli import _games, _golden, _new, _play, _schemas, _simulate
from tabletop._cli._commands import Commands
from tabletop._errors import TabletopError

__all__ = ["main"]

# Each module adds its subcommands to the parser and sets ``handler`` (args -> exit code).
COMMAND_MODULES = (_games, _play, _new, _schemas, _simulate, _golden)

PLUGIN_GROUP = "tabletop.commands"
"""Entry-point group through which other installed packages (e.g. ``tabletop-server``) add
subcommands: each entry point names a ``register(commands)`` function like the modules above."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tabletop", description="Typed board-game state machines.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(commands)
    for entry in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        register: Callable[[Commands], None] = entry.load()
        register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tabletop`` command; returns the process exit code."""
    args = _parser().parse_args(argv)
    try:
        code: int = args.handler(args)
    except (TabletopError, ValueError, LookupError) as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 2
    return code
