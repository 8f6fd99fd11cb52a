"""A generated game passes the workspace's checks as it is, and its parts' test skeletons fail.

One test runs the real tools (ruff, mypy --strict, pytest under typeguard) in subprocesses on a
throwaway workspace, so it is the slowest of the scaffold tests (about 15 s).
"""

import os
import re
import subprocess
import sys
from pathlib import Path

from tabletop._cli import main

# A long name: its lines only fit after the generator's ruff pass wraps them.
NAME = "Ticket To Ride Europe Deluxe"
KEBAB = "ticket-to-ride-europe-deluxe"
PACKAGE = "tabletop_ticket_to_ride_europe_deluxe"


def _run(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {
        "PYTHONPATH": str(root / "games" / KEBAB / "src"),
        "MYPYPATH": str(root / "games" / KEBAB / "src"),
        "MYPY_CACHE_DIR": str(root / ".mypy_cache"),
    }
    return subprocess.run(
        [sys.executable, "-m", *argv], cwd=root, env=env, capture_output=True, text=True, check=False
    )


def _assert_lint_and_types_clean(root: Path) -> None:
    game = f"games/{KEBAB}"
    for argv in (
        ("ruff", "check", "--no-cache", game),
        ("ruff", "format", "--no-cache", "--check", game),
        ("mypy", f"{game}/src"),
        ("mypy", "--explicit-package-bases", f"{game}/tests"),
    ):
        done = _run(root, *argv)
        assert done.returncode == 0, f"{' '.join(argv)}:\n{done.stdout}{done.stderr}"


def _pytest(root: Path) -> subprocess.CompletedProcess[str]:
    return _run(
        root,
        "pytest",
        "-p",
        "typeguard",
        f"--typeguard-packages=tabletop,{PACKAGE}",
        "-p",
        "no:cacheprovider",
        f"games/{KEBAB}",
    )


def test_a_new_game_passes_every_check_and_new_parts_fail_until_tested(workspace: Path) -> None:
    root = ["--root", str(workspace)]
    assert main(["new", "game", NAME, *root]) == 0
    _assert_lint_and_types_clean(workspace)
    done = _pytest(workspace)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\b1[0-9] passed\b", done.stdout), done.stdout

    assert main(["new", "action", KEBAB, "ClaimRoute", *root]) == 0
    assert main(["new", "state", KEBAB, "DrawTickets", "--from", "PlayerTurn", *root]) == 0
    _assert_lint_and_types_clean(workspace)
    done = _pytest(workspace)
    assert done.returncode == 1, done.stdout + done.stderr
    failed = sorted(re.findall(r"^FAILED (\S+)", done.stdout, re.MULTILINE))
    assert [name.split("/")[-1] for name in failed] == [
        "test_claim_route.py::test_apply_changes_the_state",
        "test_draw_tickets.py::test_enter_sets_up_the_state",
    ]
    # One "E   Failed: write this test: ..." line per skeleton (the summary may repeat it under CI).
    assert len(re.findall(r"^E\s+Failed: write this test", done.stdout, re.MULTILINE)) == 2
