"""``tabletop new``: what each subcommand writes, and that a refused request changes nothing."""

import ast
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from tabletop._cli import main

REPO = Path(__file__).resolve().parents[2]

GAME = Path("games/quick-test")
PACKAGE = GAME / "src/tabletop_quick_test"


def _snapshot(root: Path) -> dict[str, str]:
    """Every file of the workspace but tool caches (``.ruff_cache``), with its text."""
    paths = [path.relative_to(root) for path in sorted(root.rglob("*")) if path.is_file()]
    return {str(path): (root / path).read_text() for path in paths if not path.parts[0].startswith(".")}


@pytest.fixture
def game(workspace: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A workspace holding a freshly generated game ``quick-test``."""
    assert main(["new", "game", "Quick Test", "--root", str(workspace)]) == 0
    capsys.readouterr()
    return workspace


def test_new_game_writes_the_seed_layout_and_registers_the_entry_point(
    workspace: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "game", "quick-test", "--root", str(workspace)]) == 0
    out = capsys.readouterr().out
    assert "make game-files GAME=quick-test" in out  # installs it, writes its schemas and goldens
    assert "make test" in out and "uv " not in out and "\n  - tabletop" not in out  # nothing bare
    written = {str(path.relative_to(workspace / GAME)) for path in (workspace / GAME).rglob("*.*")}
    src = "src/tabletop_quick_test/"
    expected = {
        "pyproject.toml",
        f"{src}py.typed",
        f"{src}definition/states.py",
        f"{src}definition/actions.py",
        f"{src}definition/state_handlers.py",
        f"{src}definition/game.py",
        f"{src}actions/end_game.py",
        f"{src}state_handlers/player_turn.py",
        f"{src}state_handlers/game_over.py",
        f"{src}model/game_state.py",
        f"{src}model/player_state.py",
        f"{src}model/config.py",
        f"{src}components/__init__.py",
        "tests/conftest.py",
        "tests/test_game.py",
    }
    assert expected <= written
    assert {f"wrote {GAME / path}" for path in expected} <= {line.strip() for line in out.splitlines()}
    project = tomllib.loads((workspace / GAME / "pyproject.toml").read_text())
    assert project["project"]["name"] == "tabletop-quick-test"
    assert project["project"]["entry-points"]["tabletop.games"] == {
        "quick-test": "tabletop_quick_test:definition"
    }
    assert project["tool"]["uv"]["sources"] == {"tabletop-common": {"workspace": True}}
    for path in (workspace / GAME).rglob("*.py"):
        ast.parse(path.read_text())  # every module is valid Python


def test_new_game_refuses_an_existing_folder(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _snapshot(game)
    assert main(["new", "game", "QuickTest", "--root", str(game)]) == 2
    assert "games/quick-test already exists" in capsys.readouterr().err
    assert _snapshot(game) == before


def test_new_game_needs_a_workspace_root(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "game", "x", "--root", str(tmp_path)]) == 2
    assert "has no pyproject.toml" in capsys.readouterr().err
    (tmp_path / "pyproject.toml").write_text('[tool.uv.workspace]\nmembers = ["packages/*"]\n')
    assert main(["new", "game", "x", "--root", str(tmp_path)]) == 2
    assert "games/x would not be a workspace member" in capsys.readouterr().err
    assert not (tmp_path / "games").exists()


def test_new_action_is_its_module_its_member_and_its_name_in_the_accepting_state(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _snapshot(game)
    assert (
        main(["new", "action", "quick-test", "PlaceMark", "--state", "PlayerTurn", "--root", str(game)]) == 0
    )
    assert "write tests/test_place_mark.py" in capsys.readouterr().out
    after = _snapshot(game)
    created = sorted(set(after) - set(before))
    edited = sorted(path for path in before if after[path] != before[path])
    assert created == [f"{PACKAGE}/actions/place_mark.py", f"{GAME}/tests/test_place_mark.py"]
    assert edited == [f"{PACKAGE}/definition/actions.py", f"{PACKAGE}/state_handlers/player_turn.py"]
    action = after[f"{PACKAGE}/actions/place_mark.py"]
    assert "class HydratedPlaceMark(PlaceMark, HydratedAction[" in action
    assert "type: Literal[ActionType.PLACE_MARK] = ActionType.PLACE_MARK" in action
    assert 'PLACE_MARK = "PlaceMark"' in after[f"{PACKAGE}/definition/actions.py"]
    handler = after[f"{PACKAGE}/state_handlers/player_turn.py"]
    assert "accepts = (ActionType.END_GAME, ActionType.PLACE_MARK)" in handler
    assert 'pytest.fail("write this test' in after[f"{GAME}/tests/test_place_mark.py"]


def test_new_action_still_registers_in_a_definition_that_lists_its_actions(game: Path) -> None:
    """A game written before actions were found (``actions=[...]``) gets the new class listed."""
    path = game / PACKAGE / "definition/game.py"
    text = path.read_text().replace(
        "from tabletop_quick_test.definition.state_handlers",
        "from tabletop_quick_test.actions.end_game import HydratedEndGame\n"
        "from tabletop_quick_test.definition.state_handlers",
    )
    path.write_text(
        text.replace(
            "    handlers=state_handlers,\n", "    actions=[HydratedEndGame],\n    handlers=state_handlers,\n"
        )
    )
    assert main(["new", "action", "quick-test", "Bid", "--root", str(game)]) == 0
    definition = path.read_text()
    assert "from tabletop_quick_test.actions.bid import HydratedBid\n" in definition
    assert "actions=[HydratedEndGame, HydratedBid]," in definition


def test_new_state_adds_handler_test_member_map_entry_and_edge(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "state", "quick-test", "Bidding", "--from", "player-turn", "--root", str(game)]) == 0
    assert "write tests/test_bidding.py" in capsys.readouterr().out
    assert "class Bidding(Handler):" in (game / PACKAGE / "state_handlers/bidding.py").read_text()
    assert 'BIDDING = "Bidding"' in (game / PACKAGE / "definition/states.py").read_text()
    handlers = (game / PACKAGE / "definition/state_handlers.py").read_text()
    assert "from tabletop_quick_test.state_handlers.bidding import Bidding\n" in handlers
    assert "    MachineState.BIDDING: Bidding(),\n" in handlers
    turn = (game / PACKAGE / "state_handlers/player_turn.py").read_text()
    assert "transitions_to = (MachineState.GAME_OVER, MachineState.BIDDING)" in turn
    assert 'pytest.fail("write this test' in (game / GAME / "tests/test_bidding.py").read_text()


def test_a_state_without_from_is_reachable_from_the_initial_state(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new", "state", "quick-test", "Scoring", "--root", str(game)]) == 0
    assert "the initial state may now move to Scoring" in capsys.readouterr().out
    turn = (game / PACKAGE / "state_handlers/player_turn.py").read_text()
    assert "transitions_to = (MachineState.GAME_OVER, MachineState.SCORING)" in turn


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["new", "action", "no-such-game", "X"], "no game 'no-such-game'"),
        (["new", "action", "quick-test", "EndGame"], "ActionType already has END_GAME"),
        (
            ["new", "action", "quick-test", "Bid", "--state", "Nowhere"],
            "state_handlers/nowhere.py does not exist",
        ),
        (["new", "action", "quick-test", "Bid", "--state", "GameOver"], "has no GameOver.accepts"),
        (["new", "state", "quick-test", "GameOver"], "MachineState already has GAME_OVER"),
        (["new", "state", "quick-test", "Game"], "refusing to overwrite games/quick-test/tests/test_game.py"),
        (
            ["new", "state", "quick-test", "Bid", "--from", "Nowhere"],
            "state_handlers/nowhere.py does not exist",
        ),
        (["new", "state", "quick-test", "9lives"], "not a usable name"),
    ],
)
def test_refused_requests_change_nothing(
    game: Path, capsys: pytest.CaptureFixture[str], argv: list[str], error: str
) -> None:
    before = _snapshot(game)
    assert main([*argv, "--root", str(game)]) == 2
    assert error in capsys.readouterr().err
    assert _snapshot(game) == before


def test_without_ruff_the_files_are_written_and_the_user_is_told(
    workspace: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("tabletop._scaffold._generators._ruff", lambda: None)
    assert main(["new", "game", "quick-test", "--root", str(workspace)]) == 0
    assert "ruff is not installed" in capsys.readouterr().out
    assert (workspace / PACKAGE / "definition/game.py").is_file()


def _with_games_ui(workspace: Path) -> Path:
    """The workspace with the real ``games-ui`` registration files (workspaces, app, games.ts)."""
    for relative in ("games-ui/package.json", "games-ui/app/package.json", "games-ui/app/src/games.ts"):
        (workspace / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / relative, workspace / relative)
    return workspace


def test_a_new_game_gets_its_ui_project_registered_in_the_workspaces_and_the_app(workspace: Path) -> None:
    import json

    root = _with_games_ui(workspace)
    assert main(["new", "game", "Dice Duel", "--root", str(root)]) == 0
    project = root / "games-ui" / "dice-duel-ui"
    assert sorted(str(p.relative_to(project)) for p in project.rglob("*") if p.is_file()) == [
        "package.json",
        "src/Table.svelte",
        "src/index.ts",
        "tsconfig.json",
    ]
    assert json.loads((project / "package.json").read_text())["name"] == "@tabletop/dice-duel-ui"
    workspaces = json.loads((root / "games-ui" / "package.json").read_text())["workspaces"]
    assert workspaces[-2:] == ["dice-duel-ui", "app"]  # before the app, which depends on it
    app = json.loads((root / "games-ui" / "app" / "package.json").read_text())
    assert app["dependencies"]["@tabletop/dice-duel-ui"] == "0.1.0"
    games = (root / "games-ui" / "app" / "src" / "games.ts").read_text()
    assert 'import { diceDuelUi } from "@tabletop/dice-duel-ui";' in games
    assert re.search(r"const uis: AnyGameUi\[\] = \[[^\]]*, diceDuelUi\];", games)
    table = (project / "src" / "Table.svelte").read_text()
    assert 'data-testid="game-dice-duel"' in table and "= $props();" in table
    assert "data-testid={`legal-${i}`}" in table  # a template literal kept as written
    assert "DiceDuelView" in (project / "src" / "index.ts").read_text()


def test_a_ui_folder_in_the_way_stops_the_whole_game_and_writes_nothing(workspace: Path) -> None:
    root = _with_games_ui(workspace)
    (root / "games-ui" / "dice-duel-ui").mkdir()
    before = (root / "games-ui" / "package.json").read_text()
    assert main(["new", "game", "Dice Duel", "--root", str(root)]) == 2
    assert not (root / "games" / "dice-duel").exists()
    assert (root / "games-ui" / "package.json").read_text() == before


def test_without_games_ui_a_new_game_is_the_python_package_alone(workspace: Path) -> None:
    assert main(["new", "game", "Dice Duel", "--root", str(workspace)]) == 0
    assert not (workspace / "games-ui").exists()
