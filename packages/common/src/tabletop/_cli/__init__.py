"""The ``tabletop`` command. Each subcommand lives in its own module with a ``register``."""

from __future__ import annotations

import argparse
import os
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


def _parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole command's parser.

    Args:
        argv: The arguments about to be parsed. When they name a built-in subcommand, plugins
            are not loaded (a plugin such as the server imports a web stack: ``tabletop games``
            should not pay for it). None, ``--help`` or another command: everything is loaded.
    """
    parser = argparse.ArgumentParser(prog="tabletop", description="Typed board-game state machines.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(commands)
    command = next((arg for arg in argv or () if not arg.startswith("-")), None)
    if argv is None or command not in commands.choices:
        for entry in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
            register: Callable[[Commands], None] = entry.load()
            register(commands)
    return parser


BROKEN_PIPE_EXIT = 128 + 13
"""The exit code when the reader of the output went away (``tabletop demo | head``): the
shell's code for a process ended by SIGPIPE."""


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # stdout is not a file (captured, closed): nothing to flush
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``tabletop`` command; returns the process exit code.

    Output piped into a reader that stops early (``| head``) ends the command quietly with
    :data:`BROKEN_PIPE_EXIT`, without a traceback.
    """
    arguments = sys.argv[1:] if argv is None else list(argv)
    args = _parser(arguments).parse_args(arguments)
    try:
        code: int = args.handler(args)
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE_EXIT
    except (TabletopError, ValueError, LookupError) as exc:
        print(f"tabletop: {exc}", file=sys.stderr)
        return 2
    return code
