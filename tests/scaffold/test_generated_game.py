"""A generated game passes the workspace's checks as it is, and its parts' test skeletons fail.

The tests run the real tools (ruff, mypy --strict, pytest under typeguard, and the framework's
own conformance and schema suites) in subprocesses on a throwaway workspace, with the generated
game registered under its entry point, as ``make new-game`` leaves it. They are the slowest of
the scaffold tests.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tabletop._cli import main

REPO = Path(__file__).resolve().parents[2]

# A long name: its lines only fit after the generator's ruff pass wraps them.
NAME = "Ticket To Ride Europe Deluxe"
KEBAB = "ticket-to-ride-europe-deluxe"
PACKAGE = "tabletop_ticket_to_ride_europe_deluxe"
SOURCE = Path("games", KEBAB, "src", PACKAGE)


def _install(root: Path) -> None:
    """Register the game's entry point the way installing it does (a dist-info on the path).

    The workspace becomes a git work tree without commits: its schemas were never committed,
    so the breaking-change guard lets the new game change freely, as in the real workspace.
    """
    subprocess.run(["git", "init", "--quiet", str(root)], check=True, capture_output=True)
    info = root / "site" / f"{PACKAGE}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: tabletop-{KEBAB}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[tabletop.games]\n{KEBAB} = {PACKAGE}:definition\n")


def _run(root: Path, *argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    paths = os.pathsep.join([str(root / "games" / KEBAB / "src"), str(root / "site")])
    env = os.environ | {
        "PYTHONPATH": paths,
        "MYPYPATH": str(root / "games" / KEBAB / "src"),
        "MYPY_CACHE_DIR": str(root / ".mypy_cache"),
    }
    return subprocess.run(
        [sys.executable, *argv], cwd=cwd or root, env=env, capture_output=True, text=True, check=False
    )


def _assert_lint_and_types_clean(root: Path) -> None:
    game = f"games/{KEBAB}"
    for argv in (
        ("ruff", "check", "--no-cache", game),
        ("ruff", "format", "--no-cache", "--check", game),
        ("mypy", f"{game}/src"),
        ("mypy", "--explicit-package-bases", f"{game}/tests"),
    ):
        done = _run(root, "-m", *argv)
        assert done.returncode == 0, f"{' '.join(argv)}:\n{done.stdout}{done.stderr}"


def _pytest(root: Path) -> subprocess.CompletedProcess[str]:
    return _run(
        root,
        "-m",
        "pytest",
        "-p",
        "typeguard",
        f"--typeguard-packages=tabletop,{PACKAGE}",
        "-p",
        "no:cacheprovider",
        f"games/{KEBAB}",
    )


def _tabletop(root: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    script = "import sys; from tabletop._cli import main; sys.exit(main(sys.argv[1:]))"
    return _run(root, "-c", script, *argv)


def _framework_suites(root: Path) -> subprocess.CompletedProcess[str]:
    """The framework's conformance and schema suites, on the generated game only."""
    return _run(
        root,
        "-m",
        "pytest",
        "-p",
        "no:cacheprovider",
        "-q",
        "-k",
        KEBAB.replace("-", "_") + " or " + KEBAB,
        "tests/conformance",
        "tests/schemas",
        cwd=REPO,
    )


def _files_and_suites(root: Path) -> None:
    """What ``make game-files`` does (schemas, goldens), then the framework's suites pass."""
    for argv in (("schemas", "export"), ("golden", "record", KEBAB, "--seed", "1", "2", "3")):
        done = _tabletop(root, *argv)
        assert done.returncode == 0, done.stdout + done.stderr
    checked = _tabletop(root, "schemas", "check")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    done = _framework_suites(root)
    assert done.returncode == 0, done.stdout[-5000:] + done.stderr[-3000:]
    passed = re.search(r"\b(\d+) passed\b", done.stdout)
    assert passed and int(passed.group(1)) >= 15 and " failed" not in done.stdout, done.stdout[-3000:]


def test_a_new_game_passes_every_check_and_new_parts_fail_until_tested(workspace: Path) -> None:
    root = ["--root", str(workspace)]
    assert main(["new", "game", NAME, *root]) == 0
    _assert_lint_and_types_clean(workspace)
    done = _pytest(workspace)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"\b1[0-9] passed\b", done.stdout), done.stdout

    # Actions added in non-alphabetical order (EndGame, ClaimRoute, BuildStation), a state too.
    assert main(["new", "action", KEBAB, "ClaimRoute", "--state", "PlayerTurn", *root]) == 0
    assert main(["new", "action", KEBAB, "BuildStation", "--state", "PlayerTurn", *root]) == 0
    assert main(["new", "state", KEBAB, "DrawTickets", *root]) == 0
    _assert_lint_and_types_clean(workspace)
    done = _pytest(workspace)
    assert done.returncode == 1, done.stdout + done.stderr
    failed = sorted(re.findall(r"^FAILED (\S+)", done.stdout, re.MULTILINE))
    assert [name.split("/")[-1] for name in failed] == [
        "test_build_station.py::test_apply_changes_the_state",
        "test_claim_route.py::test_apply_changes_the_state",
        "test_draw_tickets.py::test_enter_sets_up_the_state",
    ]
    # One "E   Failed: write this test: ..." line per skeleton (the summary may repeat it under CI).
    assert len(re.findall(r"^E\s+Failed: write this test", done.stdout, re.MULTILINE)) == 3


@pytest.mark.slow
def test_the_framework_suites_pass_on_a_generated_game_whatever_order_parts_are_added_in(
    workspace: Path,
) -> None:
    root = ["--root", str(workspace)]
    assert main(["new", "game", NAME, *root]) == 0
    _install(workspace)
    _files_and_suites(workspace)

    assert main(["new", "action", KEBAB, "ClaimRoute", "--state", "PlayerTurn", *root]) == 0
    assert main(["new", "state", KEBAB, "DrawTickets", *root]) == 0
    assert main(["new", "action", KEBAB, "BuildStation", "--state", "DrawTickets", *root]) == 0
    _files_and_suites(workspace)

    # Removing the starter action: one file (and its test) deleted, two lines edited.
    (workspace / SOURCE / "actions" / "end_game.py").unlink()
    (workspace / "games" / KEBAB / "tests" / "test_end_game.py").unlink()
    for path, old, new in (
        ("definition/actions.py", '    END_GAME = "EndGame"\n', ""),
        (
            "state_handlers/player_turn.py",
            "(ActionType.END_GAME, ActionType.CLAIM_ROUTE)",
            "(ActionType.CLAIM_ROUTE,)",
        ),
    ):
        text = (workspace / SOURCE / path).read_text()
        assert old in text
        (workspace / SOURCE / path).write_text(text.replace(old, new))
    _assert_lint_and_types_clean(workspace)
    done = _pytest(workspace)
    failed = sorted(name.split("/")[-1] for name in re.findall(r"^FAILED (\S+)", done.stdout, re.MULTILINE))
    assert failed == [
        "test_build_station.py::test_apply_changes_the_state",
        "test_claim_route.py::test_apply_changes_the_state",
        "test_draw_tickets.py::test_enter_sets_up_the_state",
    ], done.stdout[-3000:]
    _files_and_suites(workspace)
