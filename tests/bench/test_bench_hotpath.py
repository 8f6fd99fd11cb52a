"""The hot-path bench cases (go-fish views per seat, state operations, boardgame.io) in smoke mode."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).parents[2] / "bench"
STATE_CASES = (
    "state copy µs",
    "hydrate µs (plain model) vs pydantic",
    "hydrate µs (JSON bytes) vs pydantic",
    "dehydrate µs vs pydantic",
    "JSON dump µs (orjson) vs pydantic",
)


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("tabletop_bench")


def test_the_hot_path_rows_compare_against_their_baselines(bench: ModuleType) -> None:
    result = bench.run_suite(bench.Budget.smoke(), cases=["go-fish-seats", "state-ops", "boardgame.io"])
    rows = {(row.case, row.subject): row for row in result.rows}
    seats = rows["go-fish run + view per seat µs/action", "go-fish (4 players)"]
    assert seats.value is not None and seats.value > 0, seats.note
    for name in ("sample", "tic-tac-toe", "go-fish"):
        for case in STATE_CASES:
            assert rows[case, name].ratio is not None and rows[case, name].ratio > 0, (case, name)
    bgio = rows["tic-tac-toe vs boardgame.io: playout", "tic-tac-toe"]
    assert (bgio.ratio is not None and bgio.ratio > 0) or bgio.note.startswith("skipped"), bgio.note
    assert "tic-tac-toe vs boardgame.io: playout" in bench.format_table(result)
