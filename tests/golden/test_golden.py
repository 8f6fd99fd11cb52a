"""Golden files: JSON diffs, recording, replaying, finding the first divergence, the command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import JsonValue
from tabletop._cli import main
from tabletop.games import load
from tabletop.golden import (
    Golden,
    PatchOp,
    apply_patch,
    check_golden,
    dump_golden,
    golden_dir,
    golden_files,
    json_diff,
    load_golden,
    record_golden,
    save_golden,
)
from tabletop.versions import next_versions

GAMES = ["sample", "tic-tac-toe"]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=3), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=50)
@given(old=json_values, new=json_values)
def test_a_diff_replays_to_the_new_value(old: JsonValue, new: JsonValue) -> None:
    ops = json_diff(old, new)
    replayed = apply_patch(json.loads(json.dumps(old)), ops)
    assert json.dumps(replayed, sort_keys=True) == json.dumps(new, sort_keys=True)  # objects are unordered
    assert json_diff(new, new) == []


def test_a_diff_names_only_what_changed() -> None:
    old: JsonValue = {"a": {"b": [1, 2, 3], "c": True}, "d/e": 1, "gone": 0}
    new: JsonValue = {"a": {"b": [1, 5], "c": 1}, "d/e": 1, "new": None}
    assert [op.model_dump(exclude_unset=True) for op in json_diff(old, new)] == [
        {"op": "replace", "path": "/a/b/1", "value": 5},
        {"op": "remove", "path": "/a/b/2"},
        {"op": "replace", "path": "/a/c", "value": 1},  # True is not 1 in JSON
        {"op": "remove", "path": "/gone"},
        {"op": "add", "path": "/new", "value": None},
    ]
    assert json_diff({"d/e~": 1}, {"d/e~": 2})[0].path == "/d~1e~0"


@pytest.mark.parametrize(
    "op",
    [
        PatchOp(op="replace", path="/x/y", value=1),
        PatchOp(op="remove", path="/a"),
        PatchOp(op="add", path="/l/5"),
    ],
)
def test_a_patch_to_a_missing_place_is_refused(op: PatchOp) -> None:
    with pytest.raises(ValueError, match="patch path"):
        apply_patch({"l": [1], "x": 3}, [op])


@pytest.mark.parametrize("name", GAMES)
def test_a_recording_replays_and_survives_its_file(name: str, tmp_path: Path) -> None:
    golden = record_golden(name, seed=7)
    assert golden.final_state["result"] is not None
    assert golden.steps and all(step.recorded[0]["id"] == step.action["id"] for step in golden.steps)
    assert check_golden(golden) is None
    path = save_golden(golden, tmp_path)
    assert path == tmp_path / f"{name}-seed7-p2.json"
    assert load_golden(path) == golden
    assert check_golden(load_golden(path)) is None
    assert dump_golden(load_golden(path)) == path.read_bytes()
    assert record_golden(name, seed=7) == golden  # recording is deterministic


def test_every_step_is_one_line_per_state_action_and_operation() -> None:
    golden = record_golden("tic-tac-toe", seed=2)
    lines = dump_golden(golden).decode().splitlines()
    per_step = [7 + len(step.recorded) + len(step.diff) for step in golden.steps]
    assert len(lines) == 9 + sum(per_step) + 3  # the head, the steps, the final state
    assert json.loads("\n".join(lines)) == json.loads(golden.model_dump_json(exclude_unset=True))


def _tampered(golden: Golden, step: int, change: dict[str, object]) -> Golden:
    data = json.loads(dump_golden(golden))
    data["steps"][step].update(change)
    return Golden.model_validate(data)


def test_a_changed_state_is_reported_at_its_action_and_field() -> None:
    golden = record_golden("sample", seed=3)
    diff = [op.model_dump(exclude_unset=True) for op in golden.steps[1].diff]
    changed = next(op for op in diff if op["path"] == "/total")
    changed["value"] = 999
    divergence = check_golden(_tampered(golden, 1, {"diff": diff}))
    assert divergence is not None
    assert divergence.step == 2 and divergence.action == golden.steps[1].action
    assert divergence.paths == ["/state/total"]
    installed = load("sample").logic_version
    minor, major = next_versions(installed)
    assert divergence.message == (
        f"the replay differs: the behaviour changed under the same logic version {installed}; bump "
        f"logic_version to {minor} (minor: a rules change old clients can still follow) or {major} "
        "(major: otherwise), declare a migration (tabletop.Migration) or keep a frozen copy for the "
        "matches in progress, then re-record the goldens"
    )


def test_a_changed_action_is_reported_where_the_replay_first_differs() -> None:
    golden = record_golden("sample", seed=3)
    action = dict(golden.steps[0].action)
    action["id"] = "another-id"
    divergence = check_golden(_tampered(golden, 0, {"action": action}))
    assert divergence is not None and divergence.step == 1
    assert "/recorded/0/id" in divergence.paths and "/state/action_checksum" in divergence.paths


def test_an_action_the_engine_rejects_is_reported_with_its_code() -> None:
    golden = record_golden("tic-tac-toe", seed=4)
    repeat = {**golden.steps[1].action, "square": golden.steps[0].action["square"]}
    divergence = check_golden(_tampered(golden, 1, {"action": repeat}))
    assert divergence is not None and divergence.step == 2
    assert divergence.message.startswith("the engine rejected the action: square-taken")


def test_a_changed_start_and_a_newer_logic_version_are_named() -> None:
    golden = record_golden("tic-tac-toe", seed=4)
    data = json.loads(dump_golden(golden))
    data["initial_state"]["id"] = "X"
    data["logic_version"] = "0.9.0"
    divergence = check_golden(Golden.model_validate(data))
    assert divergence is not None and divergence.step == 0 and divergence.action is None
    assert divergence.paths == ["/state/id"]
    installed = load("tic-tac-toe").logic_version
    assert divergence.message.startswith(
        f"the initial state differs (recorded with logic 0.9.0, installed {installed}: if that bump is "
        "for this change, re-record the golden with `tabletop golden record`; else bump as below); bump "
        f"logic_version to {next_versions(installed)[0]}"
    )


def test_goldens_live_in_the_game_project() -> None:
    folder = golden_dir("tic-tac-toe")
    assert (
        folder.parts[-3:] == ("tic-tac-toe", "tests", "golden")
        and folder.parent.parent.joinpath("pyproject.toml").is_file()
    )


def test_the_command_records_and_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["golden", "record", "sample", "--seed", "5", "--players", "3", "--dir", str(tmp_path)]) == 0
    path = tmp_path / "sample-seed5-p3.json"
    assert f"recorded {path}" in capsys.readouterr().out
    assert golden_files("sample", tmp_path) == [path]
    assert main(["golden", "check", "sample", "--dir", str(tmp_path)]) == 0
    assert f"ok        {path}" in capsys.readouterr().out

    data = json.loads(path.read_text())
    data["steps"][0]["diff"].append({"op": "replace", "path": "/players/0/score", "value": 42})
    path.write_text(json.dumps(data))
    assert main(["golden", "check", "--dir", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"DIVERGED  {path}: at action 1: the replay differs" in out
    assert "differs: /state/players/0/score" in out
    assert "tic-tac-toe: no goldens" in out and "1 goldens checked, 1 diverged" in out
