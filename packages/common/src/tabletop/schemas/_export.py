"""Rendering every installed game's schemas, writing them, and checking the committed copy."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from tabletop import games
from tabletop._definition import GameDefinition
from tabletop._errors import TabletopError
from tabletop._game import GameConfig
from tabletop._machine import AnyState
from tabletop.schemas._compare import BreakingChangeError, SchemaChange, check_compatibility
from tabletop.schemas._documents import (
    COMMON_FOLDER,
    DocumentProducer,
    common_documents,
    game_documents,
    registered_producers,
)
from tabletop.schemas._generator import Document, SchemaExportError, dump_document

__all__ = [
    "INDEX_FILE",
    "INDEX_FORMAT",
    "SchemasOutOfDateError",
    "check_schemas",
    "committed_schemas",
    "export_schemas",
    "listed_files",
    "read_schemas",
    "render_schemas",
]

INDEX_FILE = "index.json"
"""The contract file at the schemas root: games, logic versions, and a sha256 per file."""
INDEX_FORMAT = 1
"""Version of the index file's own layout."""

AnyDefinition = GameDefinition[AnyState, GameConfig]


class SchemasOutOfDateError(TabletopError):
    """The schemas on disk are not what the installed games export.

    Attributes:
        files: One line per differing file (``sample/state.json differs``, ``... is missing``,
            ``... is no longer exported``).
        changes: The schema changes that need a logic-version bump the games did not make.
    """

    def __init__(self, root: Path, files: Sequence[str], changes: Sequence[SchemaChange] = ()) -> None:
        self.files = tuple(files)
        self.changes = tuple(changes)
        lines = [f"schemas under {root} are out of date:", *(f"  - {line}" for line in self.files)]
        if self.changes:
            lines.append("and these changes need a logic version bump:")
            lines += [f"  - {change}" for change in self.changes]
        lines.append("run `tabletop schemas export` (after bumping logic_version where needed) and commit")
        super().__init__("\n".join(lines))


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _check_names(where: str, documents: Mapping[str, Document]) -> None:
    """Every type name means one schema across a folder's documents, and ``$defs`` keys are titles."""
    seen: dict[str, tuple[str, bytes]] = {}
    problems: list[str] = []
    for path, document in documents.items():
        definitions = document.get("$defs", {})
        assert isinstance(definitions, dict)
        root = {key: value for key, value in document.items() if key != "$defs"}
        named = [(str(document.get("title", "")), root), *definitions.items()]
        for name, schema in named:
            assert isinstance(schema, dict)
            if "title" in schema and schema["title"] != name:
                problems.append(f"{path}: $defs key {name!r} differs from its title {schema['title']!r}")
            canonical = dump_document(schema)
            if name in seen and seen[name][1] != canonical:
                problems.append(f"{path}: {name!r} means another schema than in {seen[name][0]}")
            seen.setdefault(name, (path, canonical))
    if problems:
        msg = f"{where}: generated type names are ambiguous:\n" + "\n".join(f"  - {p}" for p in problems)
        raise SchemaExportError(msg)


def render_schemas(
    definitions: Iterable[AnyDefinition] | None = None,
    *,
    producers: Iterable[DocumentProducer] | None = None,
) -> dict[str, bytes]:
    """Every schema file, by path relative to the schemas root, including ``index.json``.

    Args:
        definitions: The games to export (default: every installed game).
        producers: Extra document producers (default: the registered ones and entry points).

    Raises:
        SchemaExportError: A model cannot be exported as a client-ready schema.
    """
    chosen = games.load_all().values() if definitions is None else definitions
    extra = registered_producers() if producers is None else list(producers)
    files: dict[str, bytes] = {}
    common = common_documents()
    _check_names(COMMON_FOLDER, common)
    files.update({f"{COMMON_FOLDER}/{path}": dump_document(doc) for path, doc in common.items()})
    index_games: dict[str, object] = {}
    for definition in sorted(chosen, key=lambda d: d.name):
        if definition.name == COMMON_FOLDER or definition.name in index_games:
            msg = f"cannot export the game {definition.name!r}: its folder is taken"
            raise SchemaExportError(msg)
        documents = game_documents(definition, extra)
        _check_names(definition.name, documents)
        rendered = {f"{definition.name}/{path}": dump_document(doc) for path, doc in documents.items()}
        files.update(rendered)
        index_games[definition.name] = {
            "files": {path: _digest(data) for path, data in sorted(rendered.items())},
            "logic_version": definition.logic_version,
        }
    index = {
        "common": {
            "files": {path: _digest(data) for path, data in files.items() if path.startswith("common/")}
        },
        "format": INDEX_FORMAT,
        "games": index_games,
    }
    files[INDEX_FILE] = dump_document(index)
    return dict(sorted(files.items()))


def read_schemas(root: Path) -> dict[str, bytes]:
    """The files an export wrote under ``root``: ``index.json`` and every file it lists.

    Files the index lists but that are missing are left out; an absent index gives ``{}``.
    """
    index_path = root / INDEX_FILE
    if not index_path.is_file():
        return {}
    files = {INDEX_FILE: index_path.read_bytes()}
    for path in listed_files(files[INDEX_FILE]):
        if (root / path).is_file():
            files[path] = (root / path).read_bytes()
    return files


def _git(root: Path, *args: str) -> bytes | None:
    git = shutil.which("git")
    if git is None or not root.is_dir():
        return None
    run = subprocess.run([git, "-C", str(root), *args], capture_output=True, check=False)
    return run.stdout if run.returncode == 0 else None


def committed_schemas(root: Path) -> dict[str, bytes]:
    """The export the breaking-change guard compares with: the one committed at ``HEAD``.

    Inside a git work tree that is what ``HEAD`` holds under ``root`` (nothing for games never
    committed, so a game may change freely until its schemas are first committed); outside one,
    it is what :func:`read_schemas` finds on disk.
    """
    if _git(root, "rev-parse", "--is-inside-work-tree") is None:
        return read_schemas(root)
    index = _git(root, "show", f"HEAD:./{INDEX_FILE}")
    if index is None:
        return {}
    files = {INDEX_FILE: index}
    for path in listed_files(index):
        data = _git(root, "show", f"HEAD:./{path}")
        if data is not None:
            files[path] = data
    return files


def listed_files(index: bytes) -> list[str]:
    """Every file an ``index.json`` lists (common files first, then each game's)."""
    data = json.loads(index)
    groups = [data.get("common", {}), *data.get("games", {}).values()]
    return [path for group in groups for path in group.get("files", {})]


def _differences(on_disk: Mapping[str, bytes], fresh: Mapping[str, bytes], root: Path) -> list[str]:
    lines = []
    for path, data in fresh.items():
        target = root / path
        if not target.is_file():
            lines.append(f"{path} is missing")
        elif target.read_bytes() != data:
            lines.append(f"{path} differs")
    lines += [f"{path} is no longer exported" for path in on_disk if path not in fresh]
    return lines


def export_schemas(
    root: Path,
    definitions: Iterable[AnyDefinition] | None = None,
    *,
    producers: Iterable[DocumentProducer] | None = None,
) -> dict[str, bytes]:
    """Write every game's schemas under ``root`` and return what was written.

    The fresh export is first compared with the committed one (see :func:`committed_schemas`);
    nothing is written if a game changed its schemas without the logic-version bump the change
    needs. Files of the previous export on disk that are no longer produced are removed.

    Raises:
        BreakingChangeError: A change needs a bump the game did not make (names every change).
        SchemaExportError: A model cannot be exported as a client-ready schema.
    """
    fresh = render_schemas(definitions, producers=producers)
    previous = read_schemas(root)
    check_compatibility(committed_schemas(root), fresh)
    for path in previous:
        if path not in fresh:
            (root / path).unlink()
    for path, data in fresh.items():
        target = root / path
        if not target.is_file() or target.read_bytes() != data:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
    for folder in sorted({(root / path).parent for path in previous}, key=lambda p: -len(p.parts)):
        if folder != root and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
    return fresh


def check_schemas(
    root: Path,
    definitions: Iterable[AnyDefinition] | None = None,
    *,
    producers: Iterable[DocumentProducer] | None = None,
) -> dict[str, bytes]:
    """Check that ``root`` holds exactly what :func:`export_schemas` would write; return that.

    Raises:
        SchemasOutOfDateError: Naming every differing file, and any change that needs a
            logic-version bump the game did not make.
        SchemaExportError: A model cannot be exported as a client-ready schema.
    """
    fresh = render_schemas(definitions, producers=producers)
    on_disk = read_schemas(root)
    files = _differences(on_disk, fresh, root)
    if files:
        try:
            check_compatibility(committed_schemas(root), fresh)
        except BreakingChangeError as exc:
            raise SchemasOutOfDateError(root, files, exc.changes) from exc
        raise SchemasOutOfDateError(root, files)
    return fresh
