"""README "Creating a game": its commands run as written on a fresh clone.

Nothing but ``make`` and Python is on the PATH of a fresh clone (uv lives in ``.tools/``, the
``tabletop`` command in ``.venv/bin``), so every command is a ``make`` target or a path into
``.venv/bin``; each target exists and expands to the steps the generated-game test runs.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
SECTION = README[
    README.index("## Creating a game") : README.index("\n## ", README.index("## Creating a game") + 1)
]
COMMANDS = [
    line.split("#")[0].strip()
    for block in re.findall(r"```sh\n(.*?)```", SECTION, flags=re.DOTALL)
    for line in block.splitlines()
    if line.split("#")[0].strip()
]


def test_the_section_shows_commands() -> None:
    assert any(command.startswith("make new-game") for command in COMMANDS)
    assert any(command.startswith("make new-action") for command in COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_needs_nothing_on_the_path_but_make(command: str) -> None:
    program = command.split()[0]
    assert program == "make" or program.startswith(".venv/bin/"), command


@pytest.mark.parametrize("command", [c for c in COMMANDS if c.startswith("make ")])
def test_every_make_command_is_a_target_that_expands(command: str) -> None:
    make = shutil.which("make")
    assert make is not None, "make runs every check of this workspace"
    argv = [make, "-n", "--no-print-directory", *re.findall(r'\S+="[^"]*"|\S+', command)[1:]]
    argv = [arg.replace('"', "") for arg in argv]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    target = argv[3]
    if target.startswith("new-"):
        assert f"tabletop new {target.removeprefix('new-')}" in done.stdout
        assert "tabletop schemas export" in done.stdout  # its schemas, which make test checks
        assert "tabletop server openapi export" in done.stdout  # the OpenAPI document lists it too
        assert "tabletop golden record" in done.stdout and "--seed 1 2 3" in done.stdout  # its goldens


def test_make_new_game_names_the_game_it_installs() -> None:
    make = shutil.which("make")
    assert make is not None
    done = subprocess.run(
        [make, "-n", "--no-print-directory", "new-game", "NAME=Dice Duel"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert 'tabletop golden record "dice-duel" --seed 1 2 3' in done.stdout
    assert "grep -q '^name = \"tabletop-dice-duel\"' uv.lock" in done.stdout  # locked once, when new
