"""Timing helpers: microseconds per call, as the median of several calibrated rounds."""

from __future__ import annotations

import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

__all__ = ["Budget", "paired_us", "per_call_us", "timed"]


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard to measure: a full run, or a smoke run that only proves every case works.

    Attributes:
        name: ``"full"`` or ``"smoke"``.
        rounds: Timed rounds per micro-benchmark (the median is reported).
        round_seconds: Target duration of one round.
        playout_games: Random games per installed game for the playout rows.
        long_history: The long history length of the history-cost case.
    """

    name: str
    rounds: int
    round_seconds: float
    playout_games: int
    long_history: int

    @classmethod
    def full(cls) -> Budget:
        """Enough repetitions for stable numbers (about a minute in all)."""
        return cls("full", rounds=9, round_seconds=0.1, playout_games=100, long_history=10_000)

    @classmethod
    def smoke(cls) -> Budget:
        """A few iterations of everything (for the test suite)."""
        return cls("smoke", rounds=1, round_seconds=0.0, playout_games=2, long_history=60)


def timed(function: Callable[[], object]) -> float:
    """Seconds one call of ``function`` takes, with the garbage collector paused (as timeit does)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        started = time.perf_counter()
        function()
        return time.perf_counter() - started
    finally:
        if enabled:
            gc.enable()


def per_call_us(function: Callable[[], object], budget: Budget) -> float:
    """Median microseconds per call of ``function`` over ``budget.rounds`` calibrated rounds."""
    calls = 1
    while calls < 1_000_000:
        if timed(partial(_repeat, function, calls)) >= budget.round_seconds:
            break
        calls *= 2
    samples = [timed(partial(_repeat, function, calls)) / calls for _ in range(budget.rounds)]
    return statistics.median(samples) * 1e6


def paired_us(
    function: Callable[[], object], baseline: Callable[[], object], budget: Budget
) -> tuple[float, float]:
    """Median microseconds per call of ``function`` and of ``baseline``, timed in alternating rounds.

    Alternating keeps both under the same conditions (frequency scaling, other load), so their
    ratio is steadier than either number.
    """
    calls = 1
    while calls < 1_000_000:
        if timed(partial(_repeat, function, calls)) >= budget.round_seconds / 2:
            break
        calls *= 2
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(budget.rounds):
        ours.append(timed(partial(_repeat, function, calls)) / calls)
        theirs.append(timed(partial(_repeat, baseline, calls)) / calls)
    return statistics.median(ours) * 1e6, statistics.median(theirs) * 1e6


def _repeat(function: Callable[[], object], calls: int) -> None:
    for _ in range(calls):
        function()
