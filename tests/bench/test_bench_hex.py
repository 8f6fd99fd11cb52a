"""Hex's bench rows: the ratio against OpenSpiel's hex and the MCTS game are measured (smoke)."""

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


def test_the_hex_rows_measure_a_ratio_and_a_whole_mcts_game(bench: ModuleType) -> None:
    result = bench.run_suite(bench.Budget.smoke(), cases=["hex-openspiel", "hex-mcts"])
    rows = {(row.case, row.subject): row for row in result.rows}
    playout = rows["hex vs OpenSpiel: in-place playout", "hex 11x11"]
    assert playout.value > 0 and playout.ratio > 0
    rollout = rows["hex vs OpenSpiel: rollout playout", "hex 11x11"]
    assert rollout.value > 0 and rollout.baseline == playout.baseline
    assert rows["playout µs/action", "openspiel hex 11x11"].value > 0
    mcts = rows["MCTS hex 3x3 game µs (10 iterations)", "hex"]
    assert mcts.value > 0 and mcts.note.startswith("whole game: ")
