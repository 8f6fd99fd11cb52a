"""The UI how-to says what comes first (installing the npm packages), and names a target that does."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGE = (REPO / "docs" / "how-to" / "game-ui.md").read_text(encoding="utf-8")


def test_writing_a_ui_starts_with_installing_the_npm_packages() -> None:
    section = PAGE[PAGE.index("## Write one") :]
    commands = re.findall(r"\bmake [a-z-]+", section)
    assert commands and commands[0] == "make ui-deps", commands
    assert section.index("npm ci") < section.index("make new-game")


def test_make_ui_deps_runs_npm_ci_from_the_lockfile() -> None:
    make = shutil.which("make")
    assert make is not None
    done = subprocess.run(
        [make, "-n", "-B", "--no-print-directory", "ui-deps"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "cd games-ui && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci" in done.stdout


def test_the_browser_test_how_to_is_linked_from_the_ui_page() -> None:
    assert "(browser-tests.md)" in PAGE
    assert (REPO / "docs" / "how-to" / "browser-tests.md").is_file()
