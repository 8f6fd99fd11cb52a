"""``tabletop play`` and ``demo``: keyed games by default, ``--unkeyed`` on purpose, a clean end of input."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest
from tabletop._cli import main
from tabletop._cli._play import demo, play


def test_play_stops_cleanly_at_the_end_of_the_input() -> None:
    out = io.StringIO()
    state = play("tic-tac-toe", seed=1, players=2, seats=["human"], stdin=io.StringIO("1\n"), out=out)
    assert state.result is None and state.action_count == 2  # the human's move, then the bot's
    assert out.getvalue().rstrip().endswith("end of input: tic-tac-toe stops unfinished after 2 actions")


def test_the_play_command_exits_zero_without_a_traceback_when_input_runs_out(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "go-fish"]) == 0
    captured = capsys.readouterr()
    assert "end of input" in captured.out and "Traceback" not in captured.err


def test_the_installed_command_exits_cleanly_on_closed_input() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from tabletop._cli import main; sys.exit(main())",
            "play",
            "tic-tac-toe",
        ],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "end of input" in done.stdout and done.stderr == ""


@pytest.mark.parametrize("name", ["go-fish", "goofspiel"])
def test_play_keys_a_game_with_secrets_afresh_unless_unkeyed(name: str) -> None:
    def start(unkeyed: bool) -> tuple[str | None, str]:
        out = io.StringIO()
        state = play(
            name, seed=4, players=2, seats=["human"], stdin=io.StringIO(""), out=out, unkeyed=unkeyed
        )
        return state.prng.key, state.id

    (first, first_id), (second, second_id) = start(False), start(False)
    assert None not in (first, second) and first != second and first_id != second_id
    assert start(True) == start(True) and start(True)[0] is None


def test_demo_of_a_game_with_secrets_replays_only_unkeyed() -> None:
    def log(unkeyed: bool) -> str:
        out = io.StringIO()
        demo("go-fish", seed=2, players=3, out=out, unkeyed=unkeyed)
        return out.getvalue()

    assert log(True) == log(True)
    assert log(False) != log(False)
