"""The ``tabletop`` command as a shell sees it: piped output and several goldens at once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from tabletop._cli import BROKEN_PIPE_EXIT, main

RUN_CLI = "import sys; from tabletop._cli import main; sys.exit(main(sys.argv[1:]))"


def test_output_piped_into_a_reader_that_stops_early_ends_quietly() -> None:
    """``tabletop demo go-fish | head -1``: the reader is gone before the command writes."""
    command = [sys.executable, "-c", RUN_CLI, "demo", "go-fish", "--seed", "3"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # like `head` exiting before the first write
        errors = process.stderr.read().decode()
        code = process.wait(timeout=60)
    assert code == BROKEN_PIPE_EXIT
    assert "Traceback" not in errors and "BrokenPipeError" not in errors
    assert errors == ""


def test_golden_record_takes_several_seeds(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["golden", "record", "tic-tac-toe", "--seed", "4", "5", "--dir", str(tmp_path)]) == 0
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == ["tic-tac-toe-seed4-p2.json", "tic-tac-toe-seed5-p2.json"]
    assert json.loads((tmp_path / written[0]).read_text())["seed"] == 4
    assert capsys.readouterr().out.count("recorded ") == 2
    assert main(["golden", "check", "tic-tac-toe", "--dir", str(tmp_path)]) == 0


def test_a_built_in_command_does_not_load_command_plugins() -> None:
    """``tabletop games`` must not pay for the server's web stack (loaded through a plugin)."""
    probe = (
        "import sys; from tabletop._cli import main; code = main(['games']);"
        "assert code == 0, code; assert 'fastapi' not in sys.modules, 'plugins were loaded'"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr


def test_help_and_plugin_commands_load_the_plugins() -> None:
    help_text = subprocess.run(
        [sys.executable, "-c", RUN_CLI, "--help"], capture_output=True, text=True, check=False
    ).stdout
    assert "serve" in help_text and "games" in help_text
    serve_help = subprocess.run(
        [sys.executable, "-c", RUN_CLI, "serve", "--help"], capture_output=True, text=True, check=False
    )
    assert serve_help.returncode == 0 and "--db" in serve_help.stdout
