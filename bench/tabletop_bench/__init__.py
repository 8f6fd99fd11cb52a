"""tabletop's benchmark suite: engine speed, baselines measured in the same run, ratios.

Run ``python bench/run.py`` (``make bench``) for the full suite or ``--smoke`` for a few
iterations of every case (``make bench-smoke``, and the test suite).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

from tabletop_bench._backgammon import BACKGAMMON_CASES
from tabletop_bench._cases import CASES as ENGINE_CASES
from tabletop_bench._cases import Row
from tabletop_bench._chance import CHANCE_CASES
from tabletop_bench._fairness import FAIRNESS_CASES
from tabletop_bench._hearts import HEARTS_CASES
from tabletop_bench._hex import HEX_CASES
from tabletop_bench._hotpath import HOTPATH_CASES
from tabletop_bench._http import HTTP_CASES
from tabletop_bench._outbox import OUTBOX_CASES
from tabletop_bench._report import BenchResult, environment, format_table, save_result
from tabletop_bench._search import SEARCH_CASES
from tabletop_bench._timing import Budget

CASES = {
    **ENGINE_CASES,
    **HOTPATH_CASES,
    **SEARCH_CASES,
    **HTTP_CASES,
    **FAIRNESS_CASES,
    **HEX_CASES,
    **OUTBOX_CASES,
    **BACKGAMMON_CASES,
    **CHANCE_CASES,
    **HEARTS_CASES,
}
"""Every case, in the order the table shows them: the general engine cases, the engine hot-path
cases and the search/simulation cases (issue 15), then the server's (issue 13)."""

__all__ = ["CASES", "BenchResult", "Budget", "Row", "environment", "format_table", "run_suite", "save_result"]


def run_suite(
    budget: Budget, *, cases: Iterable[str] | None = None, progress: Callable[[str], None] | None = None
) -> BenchResult:
    """Run the chosen cases (default: all) in this process and collect their rows.

    Raises:
        KeyError: A case name is unknown.
    """
    chosen = list(CASES) if cases is None else list(cases)
    result = BenchResult(budget.name)
    started = time.perf_counter()
    for name in chosen:
        if progress is not None:
            progress(name)
        result.rows += CASES[name](budget)
    result.seconds = time.perf_counter() - started
    return result
