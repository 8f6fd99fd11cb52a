"""``--config`` on ``simulate``, ``golden record``, ``demo`` and ``play``: JSON or a file, checked."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from tabletop import AnyState
from tabletop._cli import main
from tabletop._cli._play import demo, play
from tabletop.games import load
from tabletop.golden import load_golden


def _top_score(state: AnyState) -> int:
    return max(int(player.model_dump()["score"]) for player in state.players)


@pytest.mark.parametrize("seed", [1, 2])
def test_demo_and_play_use_the_given_config(seed: int, tmp_path: Path) -> None:
    # Pig ends when someone banks the target: 10 instead of the default 100.
    state = demo("pig", seed=seed, players=2, out=io.StringIO(), config='{"target": 10}')
    assert state.result is not None and 10 <= _top_score(state) < 40
    file = tmp_path / "pig.json"
    file.write_text(json.dumps({"target": 10}))
    bots = ["bot", "bot"]
    state = play(
        "pig", seed=seed, players=2, seats=bots, stdin=io.StringIO(), out=io.StringIO(), config=str(file)
    )
    assert state.result is not None and 10 <= _top_score(state) < 40


def test_golden_record_keeps_the_config_and_check_replays_it(tmp_path: Path) -> None:
    argv = ["golden", "record", "pig", "--seed", "3", "--dir", str(tmp_path), "--config", '{"target": 12}']
    assert main(argv) == 0
    (path,) = tmp_path.iterdir()
    # the golden keeps the whole config the game ran with: the given target, every default spelled out
    expected = load("pig").config_type.model_validate({"target": 12}).model_dump(mode="json")
    assert load_golden(path).config == expected and expected["target"] == 12
    assert main(["golden", "check", "pig", "--dir", str(tmp_path)]) == 0


def test_simulate_plays_the_given_config(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    argv = ["simulate", "pig", "-n", "3", "--no-schemas", "--config", '{"target": 10}', "--json", str(report)]
    assert main(argv) == 0
    written = json.loads(report.read_text())
    assert (
        written["games"] == 3
        and written["ok"]
        and all(r["outcome"].startswith("win") for r in written["records"])
    )
    assert written["max_length"] < 60  # a few turns to 10 points: far fewer actions than a game to 100


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ('{"target": 5}', "[invalid-config] at 'target'"),
        ('{"ones_wild": false}', "[invalid-config] at 'ones_wild'"),
        ('{"target": ', "[invalid-config] the config is not valid JSON"),
        ("[1]", "neither a JSON object nor a file"),
        ("no-such-file.json", "neither a JSON object nor a file"),
    ],
)
@pytest.mark.parametrize(
    "command",
    [
        ["demo", "pig"],
        ["play", "pig"],
        ["simulate", "pig", "-n", "1"],
        ["golden", "record", "pig", "--seed", "1"],
    ],
)
def test_a_bad_config_is_a_typed_error_and_nothing_runs(
    command: list[str],
    config: str,
    expected: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # ``play`` would read choices from it
    argv = [*command, "--config", config]
    if command[0] == "golden":
        argv += ["--dir", str(tmp_path)]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert expected in captured.err and captured.out == ""
    assert list(tmp_path.iterdir()) == []
