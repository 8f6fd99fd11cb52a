"""Run tabletop's benchmark suite in one process and print the table (``make bench``).

Usage: ``python bench/run.py [--smoke] [--case NAME ...] [--out DIR | --no-save]``. A full run
saves its JSON under ``bench/results/``; a smoke run saves only with ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))  # the PostgreSQL helpers

from tabletop_bench import CASES, Budget, format_table, run_suite, save_result

RESULTS = Path(__file__).resolve().parent / "results"


def main(argv: list[str] | None = None) -> int:
    """Run the suite; print the table; save the JSON result."""
    parser = argparse.ArgumentParser(description="tabletop benchmarks")
    parser.add_argument("--smoke", action="store_true", help="a few iterations of every case")
    parser.add_argument("--case", action="append", choices=list(CASES), help="run only these cases")
    parser.add_argument(
        "--out", type=Path, default=None, help=f"folder for the JSON result (default {RESULTS})"
    )
    parser.add_argument("--no-save", action="store_true", help="do not save the JSON result")
    args = parser.parse_args(argv)
    budget = Budget.smoke() if args.smoke else Budget.full()
    result = run_suite(
        budget, cases=args.case, progress=lambda name: print(f"running {name}...", file=sys.stderr)
    )
    print(format_table(result))
    folder = args.out if args.out is not None else (None if args.smoke else RESULTS)
    if folder is not None and not args.no_save:
        print(f"\nsaved {save_result(result, folder)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
