"""The search and simulation bench cases (MCTS speed, simulate over 1 and 2 jobs) in smoke mode."""

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


def test_the_search_rows_measure_mcts_and_simulate_over_one_and_two_jobs(bench: ModuleType) -> None:
    result = bench.run_suite(
        bench.Budget.smoke(), cases=["mcts-go-fish", "mcts-tic-tac-toe", "simulate-jobs"]
    )
    rows = {row.case: row for row in result.rows}
    game = rows["MCTS go-fish game µs (4 iterations)"]
    assert game.value is not None and game.value > 0 and "target ≤ 5 s" in game.note, game.note
    simulations = rows["MCTS tic-tac-toe µs/simulation"]
    assert simulations.value is not None and simulations.value > 0 and "simulations/s" in simulations.note
    one, two = rows["simulate µs/game (1 job)"], rows["simulate µs/game (2 jobs)"]
    assert one.value is not None and two.value is not None and two.baseline == one.value
    assert two.ratio is not None and two.ratio > 0 and "speed-up" in two.note
    assert "games broke" not in one.note + two.note
    assert "simulate µs/game (2 jobs)" in bench.format_table(result)
