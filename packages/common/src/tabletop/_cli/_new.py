"""``tabletop new``: generate a game package, or add an action or a state to one."""

from __future__ import annotations

import argparse
from pathlib import Path

from tabletop._cli._commands import Commands
from tabletop._scaffold import GameNames, PartNames, format_with_ruff, new_action, new_game, new_state

__all__ = ["register"]


def _report(root: Path, written: list[Path], steps: list[str]) -> None:
    formatted = format_with_ruff(root, written)
    for path in written:
        print(f"  wrote {path}")
    if not formatted:
        print("ruff is not installed: run `ruff format` on the files above if a line came out too long")
    print("next:")
    for step in steps:
        print(f"  - {step}")


def _game(args: argparse.Namespace) -> int:
    root = Path(args.root)
    names = GameNames.parse(args.name)
    written = new_game(root, args.name)
    print(f"created games/{names.kebab}: distribution tabletop-{names.kebab}, import {names.package}")
    _report(
        root,
        written,
        [
            f"make game-files GAME={names.kebab}   (installs it, writes its schemas and 3 golden replays;"
            " `make new-game` already did)",
            f".venv/bin/tabletop demo {names.kebab}   (plays it with random legal moves)",
            "make test   (the new game passes it as generated)",
            f"make new-action GAME={names.kebab} NAME=<Name> STATE=<State>;"
            f" make new-state GAME={names.kebab} NAME=<Name> FROM=<State>",
        ],
    )
    return 0


def _action(args: argparse.Namespace) -> int:
    root = Path(args.root)
    part = PartNames.parse(args.name, "action")
    written = new_action(root, args.game, args.name, state=args.state)
    print(f"added action {part.pascal} to {GameNames.parse(args.game).kebab}")
    accept = [] if args.state else [f"accept ActionType.{part.member} in a state handler's `accepts`"]
    _report(
        root,
        written,
        [
            *accept,
            f"add payload fields and write check/apply/enumerate in actions/{part.module}.py",
            f"write tests/test_{part.module}.py: it fails until you do",
            f"make game-files GAME={GameNames.parse(args.game).kebab}   (its schemas and goldens again;"
            " `make new-action` already did)",
        ],
    )
    return 0


def _state(args: argparse.Namespace) -> int:
    root = Path(args.root)
    part = PartNames.parse(args.name, "state")
    written = new_state(root, args.game, args.name, from_state=args.from_state)
    print(f"added state {part.pascal} to {GameNames.parse(args.game).kebab}")
    reach = (
        []
        if args.from_state
        else [f"the initial state may now move to {part.pascal}: move that edge where it belongs"]
    )
    _report(
        root,
        written,
        [
            *reach,
            f"fill in accepts, transitions_to, enter and on_action in state_handlers/{part.module}.py",
            f"write tests/test_{part.module}.py: it fails until you do",
            f"make game-files GAME={GameNames.parse(args.game).kebab}   (its schemas and goldens again;"
            " `make new-state` already did)",
        ],
    )
    return 0


def register(commands: Commands) -> None:
    """Add ``new game``, ``new action`` and ``new state``."""
    new = commands.add_parser("new", help="generate a game, or add an action or a state to one")
    kinds = new.add_subparsers(dest="kind", required=True, metavar="KIND")
    root = argparse.ArgumentParser(add_help=False)
    root.add_argument("--root", default=".", help="the workspace root (default: the current directory)")
    game = kinds.add_parser("game", parents=[root], help="create games/<name>/, a playable, tested game")
    game.add_argument("name", help="the game's name, e.g. tic-tac-toe")
    game.set_defaults(handler=_game)
    action = kinds.add_parser("action", parents=[root], help="add an action to a game")
    action.add_argument("game", help="the game's name, e.g. tic-tac-toe")
    action.add_argument("name", help="the action's name, e.g. PlaceMark")
    action.add_argument("--state", help="a state whose handler accepts the new action")
    action.set_defaults(handler=_action)
    state = kinds.add_parser("state", parents=[root], help="add a machine state to a game")
    state.add_argument("game", help="the game's name, e.g. tic-tac-toe")
    state.add_argument("name", help="the state's name, e.g. Bidding")
    state.add_argument(
        "--from",
        dest="from_state",
        help="a state whose handler may move to the new one (default: the initial state)",
    )
    state.set_defaults(handler=_state)
