"""``tabletop simulate``: many seeded bot games, invariants checked after every action, a summary."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TextIO

import orjson

from tabletop import games as registry
from tabletop._cli._commands import Commands
from tabletop._cli._config import add_config_argument, read_config
from tabletop.simulation import BOT_KINDS, format_report, simulate

__all__ = ["ProgressBar", "register"]


class ProgressBar:
    """A one-line text progress bar, redrawn in place (for a terminal)."""

    def __init__(self, out: TextIO, label: str, width: int = 30) -> None:
        self.out = out
        self.label = label
        self.width = width

    def __call__(self, done: int, total: int) -> None:
        """Redraw the bar at ``done`` of ``total``; end the line when done."""
        filled = self.width * done // total if total else self.width
        bar = "#" * filled + "." * (self.width - filled)
        end = "\n" if done >= total else ""
        self.out.write(f"\r{self.label} [{bar}] {done}/{total}{end}")
        self.out.flush()


def _simulate(args: argparse.Namespace) -> int:
    progress = ProgressBar(sys.stderr, args.game) if args.progress or sys.stderr.isatty() else None
    definition = registry.load(args.game)
    report = simulate(
        definition,
        config=read_config(definition, args.config),
        games=args.n,
        seed=args.seed,
        players=args.players,
        bot=args.bot,
        iterations=args.iterations,
        schemas=None if args.no_schemas else args.schemas,
        max_actions=args.max_actions,
        progress=progress,
        jobs=args.jobs,
        ray=args.ray,
    )
    print(format_report(report))
    if args.json is not None:
        path: Path = args.json
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(orjson.dumps(report.to_json(), option=orjson.OPT_INDENT_2) + b"\n")
        print(f"wrote {path}")
    return 0 if report.ok else 1


def _jobs(text: str) -> int:
    """``--jobs``: a count of processes, 0 meaning one per core."""
    try:
        jobs = int(text)
    except ValueError:
        msg = f"not a number of processes: {text!r}"
        raise argparse.ArgumentTypeError(msg) from None
    if jobs < 0:
        msg = f"jobs must not be negative, got {jobs}"
        raise argparse.ArgumentTypeError(msg)
    return jobs or os.cpu_count() or 1


def register(commands: Commands) -> None:
    """Add ``simulate``."""
    sub = commands.add_parser(
        "simulate", help="play many seeded bot games, checking invariants after every action"
    )
    sub.add_argument("game")
    sub.add_argument("-n", type=int, default=100, help="how many games (default 100)")
    sub.add_argument(
        "--seed", type=int, default=0, help="the run's seed; game i is seeded seed+i (default 0)"
    )
    sub.add_argument("--players", type=int, default=None, help="seats per game (default 2, or the minimum)")
    add_config_argument(sub)
    sub.add_argument(
        "--bot", choices=BOT_KINDS, default="random", help="the bot in every seat (default random)"
    )
    sub.add_argument("--iterations", type=int, default=200, help="MCTS iterations per decision (default 200)")
    sub.add_argument(
        "--max-actions", type=int, default=10_000, help="actions after which a game is unfinished"
    )
    sub.add_argument(
        "--schemas", type=Path, default=Path("schemas"), help="the exported schemas (default: ./schemas)"
    )
    sub.add_argument("--no-schemas", action="store_true", help="skip the JSON Schema check")
    sub.add_argument("--json", type=Path, default=None, metavar="FILE", help="also write the report as JSON")
    where = sub.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=_jobs,
        default=1,
        metavar="N",
        help="worker processes to spread the games over; 0: one per core (default 1)",
    )
    where.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="play on the Ray cluster at ADDRESS ('auto', HOST:PORT or ray://HOST:PORT; "
        "needs tabletop-common[ray])",
    )
    sub.add_argument(
        "--progress",
        action="store_true",
        help="draw the progress bar on stderr even when it is not a terminal",
    )
    sub.set_defaults(handler=_simulate)
