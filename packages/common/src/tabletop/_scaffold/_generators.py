"""Generating a game package, and adding actions and states to one.

A new game is rendered from the template tree in ``templates/game`` (``__package__`` in a path
becomes ``tabletop_<snake>``, ``.tmpl`` is dropped, ``${...}`` placeholders are filled in). A new
action or state is rendered from ``templates/parts`` and wired into the game's declaration
modules by syntax-aware edits. Every change is computed before anything is written, so an error
leaves the workspace untouched.
"""

from __future__ import annotations

import ast
import fnmatch
import json
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass, field
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from string import Template

from tabletop._scaffold._edits import add_class_constant, add_collection_item, add_enum_member, add_import
from tabletop._scaffold._names import GameNames, PartNames, ScaffoldError

__all__ = ["Changes", "format_with_ruff", "new_action", "new_game", "new_state"]

_TEMPLATES = files("tabletop._scaffold") / "templates"


@dataclass
class Changes:
    """Files to create and files to rewrite, relative to the workspace root, applied all at once."""

    root: Path
    created: dict[Path, str] = field(default_factory=dict)
    edited: dict[Path, str] = field(default_factory=dict)

    def read(self, path: Path) -> str:
        """The current text of ``path``, including edits not yet written."""
        if path in self.edited:
            return self.edited[path]
        if not (self.root / path).is_file():
            msg = f"{path} does not exist"
            raise ScaffoldError(msg)
        return (self.root / path).read_text(encoding="utf-8")

    def write(self) -> list[Path]:
        """Check that no created file exists yet, then write everything; return the paths written."""
        taken = [str(path) for path in self.created if (self.root / path).exists()]
        if taken:
            msg = f"refusing to overwrite {', '.join(sorted(taken))}"
            raise ScaffoldError(msg)
        for path, text in (self.created | self.edited).items():
            (self.root / path).parent.mkdir(parents=True, exist_ok=True)
            (self.root / path).write_text(text, encoding="utf-8")
        return sorted(self.created) + sorted(self.edited)


def _game_values(names: GameNames) -> dict[str, str]:
    return {
        "kebab": names.kebab,
        "snake": names.snake,
        "pascal": names.pascal,
        "title": names.title,
        "package": names.package,
        "camel": names.pascal[:1].lower() + names.pascal[1:],
    }


# ``files()`` gives a Path for an installed package; typeguard's protocol check rejects a Path
# as a Traversable (parameter names differ), so both are spelled out.
Resource = Traversable | Path


def _render(template: Resource, values: dict[str, str]) -> str:
    return Template(template.read_text(encoding="utf-8")).substitute(values)


def _walk(folder: Resource, prefix: Path) -> list[tuple[Path, Resource]]:
    found: list[tuple[Path, Resource]] = []
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        if entry.is_dir():
            found += _walk(entry, prefix / entry.name)
        elif entry.name.endswith(".tmpl"):
            found.append((prefix / entry.name.removesuffix(".tmpl"), entry))
    return found


def _check_workspace(root: Path, member: str) -> None:
    manifest = root / "pyproject.toml"
    if not manifest.is_file():
        msg = f"{root} is not a workspace root: it has no pyproject.toml (use --root)"
        raise ScaffoldError(msg)
    workspace = tomllib.loads(manifest.read_text(encoding="utf-8")).get("tool", {}).get("uv", {})
    members = workspace.get("workspace", {}).get("members")
    if not isinstance(members, list):
        msg = f"{manifest} declares no [tool.uv.workspace] members"
        raise ScaffoldError(msg)
    if not any(fnmatch.fnmatch(member, str(pattern)) for pattern in members):
        msg = f"{member} would not be a workspace member: add it to [tool.uv.workspace] members"
        raise ScaffoldError(msg)


def new_game(root: Path, name: str) -> list[Path]:
    """Create the workspace package ``games/<kebab-name>/``: a minimal, playable, tested game.

    Returns:
        The files written, relative to ``root``.

    Raises:
        ScaffoldError: The name is unusable, ``root`` is not a workspace whose members include
            the new folder, or the folder already exists.
    """
    names = GameNames.parse(name)
    folder = Path("games") / names.kebab
    _check_workspace(root, folder.as_posix())
    if (root / folder).exists():
        msg = f"{folder} already exists"
        raise ScaffoldError(msg)
    changes = Changes(root)
    values = _game_values(names)
    for relative, template in _walk(_TEMPLATES / "game", folder):
        path = Path(*(names.package if part == "__package__" else part for part in relative.parts))
        changes.created[path] = _render(template, values)
    if (root / UI_ROOT / "package.json").is_file():
        _add_ui(changes, names, values)
    return changes.write()


UI_ROOT = Path("games-ui")
"""The npm workspaces of the browser UIs; a new game gets its UI project there when it exists."""


def _add_ui(changes: Changes, names: GameNames, values: dict[str, str]) -> None:
    """``games-ui/<kebab>-ui/`` with the starter table, registered in the workspaces and the app."""
    project = f"{names.kebab}-ui"
    if (changes.root / UI_ROOT / project).exists():
        msg = f"{UI_ROOT / project} already exists"
        raise ScaffoldError(msg)
    for relative, template in _walk(_TEMPLATES / "ui", UI_ROOT / project):
        changes.created[relative] = _render(template, values)
    manifest = UI_ROOT / "package.json"
    workspaces = json.loads(changes.read(manifest))
    members: list[str] = workspaces["workspaces"]
    members.insert(members.index("app") if "app" in members else len(members), project)
    changes.edited[manifest] = json.dumps(workspaces, indent=2, ensure_ascii=False) + "\n"
    app_manifest = UI_ROOT / "app" / "package.json"
    app = json.loads(changes.read(app_manifest))
    app.setdefault("dependencies", {})[f"@tabletop/{project}"] = "0.1.0"
    changes.edited[app_manifest] = json.dumps(app, indent=2, ensure_ascii=False) + "\n"
    registry = UI_ROOT / "app" / "src" / "games.ts"
    export = f"{values['camel']}Ui"
    changes.edited[registry] = _register_ui(changes.read(registry), project, export, str(registry))


def _register_ui(source: str, project: str, export: str, where: str) -> str:
    """``games.ts`` with the UI imported and added to the ``uis`` list the app mounts from."""
    imports = list(re.finditer(r'^import \{ \w+ \} from "@tabletop/[\w-]+-ui";\n', source, re.MULTILINE))
    listed = re.search(r"^(const uis: AnyGameUi\[\] = \[)(.*?)(\];)$", source, re.MULTILINE)
    if not imports or listed is None:
        msg = f"{where}: found no UI imports and `const uis: AnyGameUi[] = [...]` to add {export} to"
        raise ScaffoldError(msg)
    entries = [entry.strip() for entry in listed.group(2).split(",") if entry.strip()]
    source = source[: listed.start(2)] + ", ".join([*entries, export]) + source[listed.end(2) :]
    line = f'import {{ {export} }} from "@tabletop/{project}";\n'
    at = imports[-1].end()
    return source[:at] + line + source[at:]


def _game_folder(root: Path, game: str) -> tuple[GameNames, Path]:
    names = GameNames.parse(game)
    folder = Path("games") / names.kebab
    if not (root / folder / "src" / names.package / "definition").is_dir():
        msg = (
            f"no game {names.kebab!r} in {root / 'games'} (expected {folder}/src/{names.package}/definition)"
        )
        raise ScaffoldError(msg)
    return names, folder


def _part_values(game: GameNames, part: PartNames) -> dict[str, str]:
    return _game_values(game) | {
        "name": part.pascal,
        "member": part.member,
        "snake_name": part.snake,
        "module": part.module,
    }


def new_action(root: Path, game: str, name: str, *, state: str | None = None) -> list[Path]:
    """Add an action to a game: its module, test skeleton and ``ActionType`` member.

    The definition finds the action in the game's ``actions`` package; nothing else registers it
    (a game whose definition still lists ``actions=[...]`` gets the new class added there).

    Args:
        root: The workspace root.
        game: The game's name (any spelling of its folder name).
        name: The action's name, e.g. ``PlaceMark``.
        state: A machine state whose handler should accept the action (added to its ``accepts``).

    Returns:
        The files written, relative to ``root``.

    Raises:
        ScaffoldError: No such game or state, the name is taken, or a file already exists.
    """
    game_names, folder = _game_folder(root, game)
    part = PartNames.parse(name, "action")
    package = Path(folder, "src", game_names.package)
    values = _part_values(game_names, part)
    changes = Changes(root)
    changes.created[package / "actions" / f"{part.module}.py"] = _render(
        _TEMPLATES / "parts" / "action.py.tmpl", values
    )
    changes.created[folder / "tests" / f"test_{part.module}.py"] = _render(
        _TEMPLATES / "parts" / "test_action.py.tmpl", values
    )
    enum_path = package / "definition" / "actions.py"
    changes.edited[enum_path] = add_enum_member(
        changes.read(enum_path), "ActionType", part.member, part.pascal, where=str(enum_path)
    )
    game_path = package / "definition" / "game.py"
    if _lists_actions(changes.read(game_path)):
        text = add_import(
            changes.read(game_path), f"{game_names.package}.actions.{part.module}", f"Hydrated{part.pascal}"
        )
        changes.edited[game_path] = add_collection_item(
            text, "actions", f"Hydrated{part.pascal}", where=str(game_path)
        )
    if state is not None:
        handler = PartNames.parse(state, "state")
        path = package / "state_handlers" / f"{handler.module}.py"
        text = add_import(changes.read(path), f"{game_names.package}.definition.actions", "ActionType")
        changes.edited[path] = add_class_constant(
            text, handler.pascal, "accepts", f"ActionType.{part.member}", where=str(path)
        )
    return changes.write()


def _lists_actions(source: str) -> bool:
    """True if a definition module passes ``actions=[...]`` (the layout before actions were found)."""
    return any(
        isinstance(node, ast.keyword) and node.arg == "actions" for node in ast.walk(ast.parse(source))
    )


def _initial_state(changes: Changes, package: Path) -> str | None:
    """The value of the ``MachineState`` member the definition names as ``initial_state``."""
    member = None
    for node in ast.walk(ast.parse(changes.read(package / "definition" / "game.py"))):
        if (
            isinstance(node, ast.keyword)
            and node.arg == "initial_state"
            and isinstance(node.value, ast.Attribute)
        ):
            member = node.value.attr
    for node in ast.walk(ast.parse(changes.read(package / "definition" / "states.py"))):
        named = isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == member for t in node.targets
        )
        if named and isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            return str(node.value.value)
    return None


def new_state(root: Path, game: str, name: str, *, from_state: str | None = None) -> list[Path]:
    """Add a machine state to a game: its handler module, test skeleton, enum member and map entry.

    Args:
        root: The workspace root.
        game: The game's name (any spelling of its folder name).
        name: The state's name, e.g. ``Bidding``.
        from_state: A state whose handler may move to the new one (added to its ``transitions_to``),
            so that the new state is reachable; by default the game's initial state (the edge
            is declared, not taken: ``on_action`` decides when to move there).

    Returns:
        The files written, relative to ``root``.

    Raises:
        ScaffoldError: No such game or state, the name is taken, or a file already exists.
    """
    game_names, folder = _game_folder(root, game)
    part = PartNames.parse(name, "state")
    package = Path(folder, "src", game_names.package)
    values = _part_values(game_names, part)
    changes = Changes(root)
    changes.created[package / "state_handlers" / f"{part.module}.py"] = _render(
        _TEMPLATES / "parts" / "state.py.tmpl", values
    )
    changes.created[folder / "tests" / f"test_{part.module}.py"] = _render(
        _TEMPLATES / "parts" / "test_state.py.tmpl", values
    )
    enum_path = package / "definition" / "states.py"
    changes.edited[enum_path] = add_enum_member(
        changes.read(enum_path), "MachineState", part.member, part.pascal, where=str(enum_path)
    )
    map_path = package / "definition" / "state_handlers.py"
    text = add_import(
        changes.read(map_path), f"{game_names.package}.state_handlers.{part.module}", part.pascal
    )
    changes.edited[map_path] = add_collection_item(
        text, "state_handlers", f"MachineState.{part.member}: {part.pascal}()", where=str(map_path)
    )
    if from_state is None:
        from_state = _initial_state(changes, package)
    if from_state is not None:
        source = PartNames.parse(from_state, "state")
        path = package / "state_handlers" / f"{source.module}.py"
        text = add_import(changes.read(path), f"{game_names.package}.definition.states", "MachineState")
        changes.edited[path] = add_class_constant(
            text, source.pascal, "transitions_to", f"MachineState.{part.member}", where=str(path)
        )
    return changes.write()


def _ruff() -> str | None:
    beside = Path(sys.executable).with_name("ruff")
    return str(beside) if beside.is_file() else shutil.which("ruff")


def format_with_ruff(root: Path, paths: list[Path]) -> bool:
    """Sort imports and format the Python files among ``paths`` with ruff, if ruff is installed.

    The generators already write formatted code for names of ordinary length; this pass wraps
    the lines that very long names push past the workspace's line length. Runs in ``root`` so
    the workspace's ruff settings apply.

    Returns:
        False if ruff is not installed (nothing was changed), else True.
    """
    ruff = _ruff()
    python = [str(path) for path in paths if path.suffix == ".py"]
    if ruff is None:
        return False
    if python:
        subprocess.run(
            [ruff, "check", "--quiet", "--no-cache", "--fix", "--select", "I", *python], cwd=root, check=False
        )
        subprocess.run([ruff, "format", "--quiet", "--no-cache", *python], cwd=root, check=False)
    return True
