"""The benchmark suite's smoke mode runs every case in-process, so the suite cannot rot."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from types import ModuleType

import pytest
from tabletop.games import available

BENCH = Path(__file__).parents[2] / "bench"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(BENCH))
    return importlib.import_module("tabletop_bench")


def test_the_smoke_run_measures_every_case(bench: ModuleType, tmp_path: Path) -> None:
    result = bench.run_suite(bench.Budget.smoke())
    rows = {(row.case, row.subject): row for row in result.rows}
    for name in ("sample", "tic-tac-toe"):
        for case in ("engine.run µs/action", "playout µs/action", "parse JSON action µs", "dehydrate µs"):
            assert rows[case, name].value > 0, (case, name, rows[case, name].note)
        assert rows["orjson state dump µs", name].ratio > 0
        assert rows["hydrate µs (JSON bytes)", name].value > 0
    assert {name for case, name in rows if case == "engine.run µs/action"} == set(available())
    assert rows["tic-tac-toe vs OpenSpiel: playout", "tic-tac-toe"].ratio > 0
    assert rows["tic-tac-toe vs OpenSpiel: run vs apply_action", "tic-tac-toe"].ratio > 0
    assert rows["tic-tac-toe vs OpenSpiel: rollout playout", "tic-tac-toe"].ratio > 0
    assert rows["hearts vs OpenSpiel: playout µs/move", "hearts"].ratio > 0
    assert rows["hearts vs OpenSpiel: rollout playout µs/move", "hearts"].ratio > 0
    assert rows["pig vs OpenSpiel: rollout playout µs/move", "pig"].ratio > 0
    assert rows["run µs at history 60 vs 10", "sample (Pass)"].ratio > 0
    projection = rows["projection µs (4-player Go Fish)", "go-fish"]
    assert projection.value is not None or projection.note.startswith(("n/a", "error"))

    table = bench.format_table(result)
    assert table.startswith("tabletop bench (smoke): Python ")
    assert "tic-tac-toe vs OpenSpiel: playout" in table and "x" in table

    path = bench.save_result(result, tmp_path)
    saved = json.loads(path.read_text())
    assert path.name.endswith("-smoke.json")
    assert saved["mode"] == "smoke" and saved["python"]["version"] and saved["git"]["commit"]
    assert saved["machine"]["cpus"] >= 1
    assert len(saved["rows"]) == len(result.rows)


def test_the_committed_result_is_a_full_run_with_its_environment() -> None:
    results = sorted((BENCH / "results").glob("*-full.json"))
    assert results, "commit one full result: make bench"
    saved = json.loads(results[-1].read_text())
    assert saved["mode"] == "full" and len(saved["git"]["commit"]) == 40
    cases = {row["case"] for row in saved["rows"]}
    assert {"engine.run µs/action", "tic-tac-toe vs OpenSpiel: playout", "parse JSON action µs"} <= cases
