"""A generated game, given chance, hidden information and its generated UI, passes ``make test``'s
checks for it: the proof that the docs' path from scaffold to browser has no surprises.

Everything runs in a temporary copy of the repository (its tracked files), never in the tree:
the game is generated there with its UI project, dealt secret dice from the state's PRNG (a
die roll at setup, owner-only), installed through a dist-info on the path (as the other
generated-game test does), and then checked the way ``make test`` checks a game: ruff and
mypy --strict, its own tests under typeguard (the generated determinism test included), the
conformance suite's fast tier on it, the schemas and the OpenAPI document exported and checked,
the TypeScript types generated and svelte-check of its UI and the app. Each step has a bounded
timeout; the copy's ``node_modules`` links to the real one's packages (read-only) and to its
own workspaces.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NAME = "Liars Dice"
KEBAB = "liars-dice"
PACKAGE = "tabletop_liars_dice"
STEP_TIMEOUT = 900
"""Seconds any one step may take (a loaded two-core machine runs them several times slower)."""

pytestmark = pytest.mark.slow


def _copy_repository(target: Path) -> None:
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True, timeout=60
    ).stdout.decode()
    for relative in filter(None, listed.split("\0")):
        source = REPO / relative
        if source.is_file():
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / relative)
    subprocess.run(["git", "init", "--quiet", str(target)], check=True, capture_output=True, timeout=60)


def _link_node_modules(root: Path) -> None:
    """``games-ui/node_modules`` of the copy: the real packages, and the copy's own workspaces."""
    real = REPO / "games-ui" / "node_modules"
    linked = root / "games-ui" / "node_modules"
    linked.mkdir()
    for entry in real.iterdir():
        if entry.name != "@tabletop":
            (linked / entry.name).symlink_to(entry)
    (linked / "@tabletop").mkdir()
    for workspace in (root / "games-ui").iterdir():
        manifest = workspace / "package.json"
        if workspace.name != "node_modules" and manifest.is_file():
            name = re.search(r'"name": "@tabletop/([\w-]+)"', manifest.read_text())
            if name:
                (linked / "@tabletop" / name.group(1)).symlink_to(Path("..", "..", workspace.name))


def _install(root: Path) -> dict[str, str]:
    """The environment that has the generated game installed (its entry point on the path)."""
    info = root / "site" / f"{PACKAGE}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: tabletop-{KEBAB}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[tabletop.games]\n{KEBAB} = {PACKAGE}:definition\n")
    paths = os.pathsep.join(
        [str(root / "games" / KEBAB / "src"), str(root / "site"), str(root / "tests" / "support")]
    )
    return os.environ | {
        "PYTHONPATH": paths,
        "MYPYPATH": str(root / "games" / KEBAB / "src"),
        "MYPY_CACHE_DIR": str(root / ".mypy_cache"),
        "TABLETOP_SCHEMAS": str(root / "schemas"),
    }


def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> str:
    done = subprocess.run(
        argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=STEP_TIMEOUT, check=False
    )
    assert done.returncode == 0, f"{' '.join(argv)}:\n{done.stdout[-6000:]}\n{done.stderr[-4000:]}"
    return done.stdout


def _tabletop(root: Path, env: dict[str, str], *argv: str) -> str:
    script = "import sys; from tabletop._cli import main; sys.exit(main(sys.argv[1:]))"
    return _run([sys.executable, "-c", script, *argv], root, env)


DETERMINIZER = f'''"""Liars Dice's determinizer: a state consistent with one seat's view, for search bots."""

import random

from pydantic import BaseModel
from tabletop.bots import fill_hidden

from {PACKAGE}.model.game_state import HydratedLiarsDiceGameState

__all__ = ["determinize"]


def determinize(view: BaseModel, seat: str | None, rng: random.Random) -> HydratedLiarsDiceGameState:
    """A full state that ``seat``'s view cannot tell from the real one: the dice under the
    other cups are rolled again with ``rng`` (the seat's own are kept as seen)."""

    def fill(part: BaseModel, name: str) -> list[int]:
        """The three dice under another player's cup."""
        return [rng.randint(1, 6) for _ in range(3)]

    return fill_hidden(view, HydratedLiarsDiceGameState, fill, rng)
'''
"""What a game that hides information adds: a determinizer (``GameDefinition.determinizer``), here on
``tabletop.bots.fill_hidden``. The conformance suite checks it."""


def _add_chance_and_hidden_information(root: Path) -> None:
    """Each player is dealt three dice at setup, rolled from the state's PRNG and seen by the owner
    only; the game declares a determinizer for them."""
    source = root / "games" / KEBAB / "src" / PACKAGE
    player = source / "model" / "player_state.py"
    player.write_text(
        player.read_text()
        .replace(
            "from tabletop import PlayerState\n",
            "from typing import Annotated\n\n"
            "from tabletop import PlayerState\n"
            "from tabletop.views import OwnerOnly\n",
        )
        .replace(
            '    """A Liars Dice player (add fields with a docstring each)."""\n',
            '    """A Liars Dice player (add fields with a docstring each)."""\n\n'
            "    dice: Annotated[list[int], OwnerOnly()] = []\n"
            '    """The faces under the player\'s cup: only they see them."""\n',
        )
    )
    state = source / "model" / "game_state.py"
    text = state.read_text()
    assert 'drawing randomness only from ``ctx.prng``."""\n' in text
    state.write_text(
        text.replace(
            'drawing randomness only from ``ctx.prng``."""\n',
            'drawing randomness only from ``ctx.prng``."""\n'
            "    for player in ctx.state.players:\n"
            "        player.dice = [ctx.prng.die_roll() for _ in range(3)]\n",
        )
    )
    (source / "model" / "determinizer.py").write_text(DETERMINIZER)
    game = source / "definition" / "game.py"
    game.write_text(
        game.read_text()
        .replace(
            "    max_players=8,\n", "    max_players=8,\n    chance=True,\n    determinizer=determinize,\n"
        )
        .replace(
            f"from {PACKAGE}.model.game_state import",
            f"from {PACKAGE}.model.determinizer import determinize\nfrom {PACKAGE}.model.game_state import",
        )
    )


def test_a_generated_game_with_chance_hidden_information_and_its_ui_passes_the_checks(tmp_path: Path) -> None:
    if not (REPO / "games-ui" / "node_modules" / ".installed").is_file():
        pytest.skip("games-ui/node_modules is not installed: run make ui-deps")
    npm = shutil.which("npm")
    assert npm is not None, "npm runs the UI checks"
    root = tmp_path / "repo"
    _copy_repository(root)
    _link_node_modules(root)
    env = _install(root)

    _tabletop(root, env, "new", "game", NAME, "--root", str(root))
    assert (root / "games-ui" / f"{KEBAB}-ui" / "src" / "Table.svelte").is_file()
    linked = root / "games-ui" / "node_modules" / "@tabletop" / f"{KEBAB}-ui"
    linked.symlink_to(Path("..", "..", f"{KEBAB}-ui"))  # what make new-game's npm install links
    _add_chance_and_hidden_information(root)

    # make game-files: schemas, the OpenAPI document, goldens
    _tabletop(root, env, "schemas", "export")
    _tabletop(
        root, env, "server", "openapi", "export", "--out", str(root / "schemas" / "server" / "openapi.json")
    )
    _tabletop(root, env, "golden", "record", KEBAB, "--seed", "1", "2", "3")
    assert (
        "liars-dice/views/player.json" in (root / "schemas" / "index.json").read_text()
    )  # hidden information

    # make lint, typecheck, schemas-check
    game = f"games/{KEBAB}"
    _run([sys.executable, "-m", "ruff", "check", "--no-cache", game], root, env)
    _run([sys.executable, "-m", "ruff", "format", "--no-cache", "--check", game], root, env)
    _run([sys.executable, "-m", "mypy", f"{game}/src"], root, env)
    _run([sys.executable, "-m", "mypy", "--explicit-package-bases", f"{game}/tests"], root, env)
    _tabletop(root, env, "schemas", "check")
    _tabletop(
        root, env, "server", "openapi", "check", "--out", str(root / "schemas" / "server" / "openapi.json")
    )

    # make pytest, for this game: its tests under typeguard, and the conformance fast tier on it
    typeguard = ["-p", "typeguard", f"--typeguard-packages=tabletop,{PACKAGE}", "-p", "no:cacheprovider"]
    out = _run(
        [sys.executable, "-m", "pytest", "-m", "not slow", "-n", "0", "-q", *typeguard, game], root, env
    )
    assert re.search(r"\b1[0-9] passed\b", out), out[-2000:]
    conformance = [
        sys.executable,
        "-m",
        "pytest",
        "-m",
        "not slow",
        "-n",
        "0",
        "-q",
        "-p",
        "no:cacheprovider",
    ]
    out = _run(
        [*conformance, "tests/conformance", "-k", f"{PACKAGE.removeprefix('tabletop_')} or {KEBAB}"],
        root,
        env,
    )
    passed = re.search(r"\b(\d+) passed\b", out)
    assert passed and int(passed.group(1)) >= 15 and " failed" not in out, out[-3000:]

    # make ui-types and ui-check, for this game's UI and the app that mounts it
    ui = root / "games-ui"
    _run([npm, "run", "generate", "--silent"], ui, env)
    types = (ui / "types" / "dist" / f"{KEBAB}.d.ts").read_text()
    assert (
        "export type LiarsDiceView = LiarsDiceGameStatePlayerView | LiarsDiceGameStateSpectatorView;" in types
    )
    for project in (f"{KEBAB}-ui", "app"):
        _run([npm, "run", "typecheck", "--silent"], ui / project, env)
    assert not any(path.name == KEBAB for path in (REPO / "games").iterdir())  # nothing in the tree
