"""``tabletop golden record|check``: save seeded playouts as goldens and replay them."""

from __future__ import annotations

import argparse
from pathlib import Path

from tabletop import games
from tabletop._cli._commands import Commands
from tabletop._cli._config import add_config_argument, read_config
from tabletop.golden import check_golden, golden_dir, golden_files, load_golden, record_golden, save_golden

__all__ = ["register"]


def _record(args: argparse.Namespace) -> int:
    definition = games.load(args.game)
    config = read_config(definition, args.config)
    folder: Path = args.dir if args.dir is not None else golden_dir(args.game)
    for seed in args.seed:
        golden = record_golden(definition, seed=seed, players=args.players, config=config)
        path = save_golden(golden, folder)
        print(f"recorded {path}: {len(golden.steps)} actions, result {golden.final_state.get('result')}")
    return 0


def _check(args: argparse.Namespace) -> int:
    names = [args.game] if args.game else games.available()
    checked = diverged = 0
    for name in names:
        files = golden_files(name, args.dir)
        if not files:
            print(f"{name}: no goldens")
        for path in files:
            golden = load_golden(path)
            divergence = check_golden(golden)
            checked += 1
            if divergence is None:
                print(f"ok        {path} ({len(golden.steps)} actions)")
                continue
            diverged += 1
            where = "the start" if divergence.action is None else f"action {divergence.step}"
            print(f"DIVERGED  {path}: at {where}: {divergence.message}")
            if divergence.action is not None:
                print(f"          action: {divergence.action}")
            for field in divergence.paths:
                print(f"          differs: {field}")
    print(f"{checked} goldens checked, {diverged} diverged")
    return 1 if diverged else 0


def register(commands: Commands) -> None:
    """Add ``golden record`` and ``golden check``."""
    golden = commands.add_parser("golden", help="record seeded playouts as golden files and replay them")
    actions = golden.add_subparsers(dest="golden_command", required=True, metavar="ACTION")
    record = actions.add_parser("record", help="play a seeded random game and save it as a golden")
    record.add_argument("game")
    record.add_argument(
        "--seed",
        type=int,
        nargs="+",
        required=True,
        help="the game's (and the random bot's) seed; several: one golden each",
    )
    record.add_argument("--players", type=int, default=None, help="seats (default 2, or the minimum)")
    add_config_argument(record)
    record.set_defaults(handler=_record)
    check = actions.add_parser("check", help="replay every golden and report the first divergence")
    check.add_argument("game", nargs="?", default=None, help="one game (default: every installed game)")
    check.set_defaults(handler=_check)
    for sub in (record, check):
        sub.add_argument(
            "--dir", type=Path, default=None, help="the golden folder (default: <game project>/tests/golden)"
        )
