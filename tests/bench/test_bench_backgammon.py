"""Backgammon's bench rows in smoke mode: the playout against pyspiel's backgammon, and MCTS."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[2] / "bench"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("tabletop_bench")


def test_the_backgammon_rows_compare_with_openspiel_and_time_an_mcts_decision(bench: ModuleType) -> None:
    result = bench.run_suite(bench.Budget.smoke(), cases=["backgammon-playout", "mcts-backgammon"])
    rows = {row.case: row for row in result.rows}
    versus = rows["backgammon vs OpenSpiel: playout µs/move"]
    assert versus.value is not None and versus.baseline == rows["playout µs/move"].value
    assert versus.ratio is not None and versus.ratio > 0 and "target ≤ 3×" in versus.note
    decision = rows["MCTS backgammon decision µs (20 iterations)"]
    assert decision.value is not None and decision.value > 0 and "target ≤ 2 s" in decision.note
