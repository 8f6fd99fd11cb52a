"""The breaking-change guard: what changed between two exports, and which bump each change needs.

A change is judged by the direction its document travels, from the side of whoever reads it
with the *old* models:

- **Requests** (client -> server: ``request.json``, ``requests/*``, ``config.json``) are read
  by the new server, written by old clients. *Major* when something an old client sends may be
  refused now (a field, enum value, union branch or action type removed; a type, bound or
  requirement narrowed; a required field added); *minor* when it only widens what is accepted
  (a new optional field, a widened type or bound, a new action type, a changed default).
- **Outputs** (server -> clients: ``state.json``, ``player_state.json``, ``action.json``,
  ``actions/*``, ``views/*``, any produced document) are written by the new server and read by
  old clients, generated with closed objects (``extra="forbid"``, ``additionalProperties:
  false``, exhaustive ``switch`` over tags and enums). *Major* when the server may now send
  something an old client refuses or misreads: any field added (optional or not) or removed, a
  widened type, bound or enum, a new union branch or action type, a field made optional;
  *minor* when it only narrows what is sent (a value, bound or action type no longer sent, a
  field now always present).

Either way *patch* when only descriptions or titles changed, and a removed document is major.
A game must bump its ``logic_version``'s major for a major change and at least its minor for a
minor one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from tabletop._errors import TabletopError
from tabletop.schemas._generator import SchemaExportError

__all__ = [
    "BreakingChangeError",
    "ChangeLevel",
    "Direction",
    "SchemaChange",
    "check_compatibility",
    "compare_exports",
    "direction_of",
]

Json = object


class ChangeLevel(StrEnum):
    """Which part of the logic version a schema change requires to be bumped."""

    MAJOR = "major"
    MINOR = "minor"
    PATCH = "patch"


class Direction(StrEnum):
    """Which way a document travels, which decides how its changes are judged."""

    REQUEST = "request"
    """Client -> server: the new server reads what old clients write."""
    OUTPUT = "output"
    """Server -> clients: old clients read what the new server writes."""


_REQUEST_DOCUMENTS = ("request.json", "config.json")
_REQUEST_FOLDERS = ("requests/",)


def direction_of(path: str) -> Direction:
    """The direction of a document, by its path under the game's folder (``requests/Ask.json``)."""
    if path in _REQUEST_DOCUMENTS or path.startswith(_REQUEST_FOLDERS):
        return Direction.REQUEST
    return Direction.OUTPUT


_RANK = {ChangeLevel.PATCH: 0, ChangeLevel.MINOR: 1, ChangeLevel.MAJOR: 2}
_LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties")
_UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties")
_COSMETIC = ("title", "description", "examples", "$comment")
_HANDLED = frozenset(
    {
        *_LOWER_BOUNDS,
        *_UPPER_BOUNDS,
        *_COSMETIC,
        "$defs",
        "$ref",
        "type",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "default",
        "anyOf",
        "oneOf",
        "discriminator",
    }
)


@dataclass(frozen=True, order=True)
class SchemaChange:
    """One difference between two exports of a game.

    Attributes:
        game: The game's name.
        level: The version bump the change needs.
        where: The type (and dotted field path) that changed, or the document path.
        message: What changed.
        direction: Whether the change was found in a request or in an output document.
    """

    game: str
    level: ChangeLevel
    where: str
    message: str
    direction: Direction = Direction.REQUEST

    def __str__(self) -> str:
        where = f"{self.where}: " if self.where else ""
        return f"{self.game}: {where}{self.message} ({self.level}, {self.direction})"


class BreakingChangeError(TabletopError):
    """Schemas changed without the logic-version bump the changes need.

    Attributes:
        changes: Every change whose game did not bump its version enough.
    """

    def __init__(self, problems: Sequence[str], changes: Sequence[SchemaChange]) -> None:
        self.changes = tuple(changes)
        lines = "\n".join(f"  - {problem}" for problem in problems)
        super().__init__(f"schema changes need a logic version bump:\n{lines}")


def _js(value: Json) -> str:
    return json.dumps(value, sort_keys=True)


def _dict(value: Json) -> dict[str, Json]:
    return value if isinstance(value, dict) else {}


def _strings(value: Json) -> set[str]:
    """The items of a JSON list as strings (``required``, a ``type`` list); nothing for a non-list."""
    return {str(item) for item in value} if isinstance(value, list) else set()


def _strip(node: dict[str, Json]) -> dict[str, Json]:
    """The node without what describes a field rather than a type (compared separately)."""
    return {k: v for k, v in node.items() if k not in _COSMETIC and k != "default"}


def _unwrap(node: dict[str, Json]) -> dict[str, Json]:
    """``{"allOf": [X], ...}`` (how a field annotates a referenced type) read as X beside ``...``."""
    wrapped = node.get("allOf")
    if isinstance(wrapped, list) and len(wrapped) == 1 and isinstance(wrapped[0], dict):
        return {**{k: v for k, v in node.items() if k != "allOf"}, **wrapped[0]}
    return node


class _Differ:
    """Walks two versions of one game's documents in parallel, following ``$ref`` once per type."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.changes: dict[tuple[Direction, str, str], SchemaChange] = {}
        self.seen: set[tuple[Direction, str, str]] = set()
        self.old_defs: dict[str, Json] = {}
        self.new_defs: dict[str, Json] = {}
        self.direction = Direction.REQUEST

    def add(self, level: ChangeLevel, where: str, message: str) -> None:
        key = (self.direction, where, message)
        self.changes.setdefault(key, SchemaChange(self.game, level, where, message, self.direction))

    def narrowed(self, where: str, message: str) -> None:
        """Less is accepted or sent: breaks old clients' requests, harmless to their reading."""
        self.add(
            ChangeLevel.MAJOR if self.direction is Direction.REQUEST else ChangeLevel.MINOR, where, message
        )

    def widened(self, where: str, message: str) -> None:
        """More is accepted or sent: harmless to old clients' requests, breaks their reading."""
        self.add(
            ChangeLevel.MINOR if self.direction is Direction.REQUEST else ChangeLevel.MAJOR, where, message
        )

    def document(self, old: dict[str, Json], new: dict[str, Json], direction: Direction) -> None:
        self.direction = direction
        self.old_defs = _dict(old.get("$defs"))
        self.new_defs = _dict(new.get("$defs"))
        old_name, new_name = str(old.get("title", "")), str(new.get("title", ""))
        if (direction, old_name, new_name) in self.seen:
            return
        self.seen.add((direction, old_name, new_name))
        self.node(old, new, new_name)

    def _resolve(self, node: dict[str, Json], defs: dict[str, Json]) -> tuple[str | None, dict[str, Json]]:
        ref = node.get("$ref")
        if not isinstance(ref, str):
            return None, node
        name = ref.rsplit("/", 1)[-1]
        return name, _dict(defs.get(name))

    def node(self, old_node: dict[str, Json], new_node: dict[str, Json], where: str) -> None:
        old_node, new_node = _unwrap(old_node), _unwrap(new_node)
        old_name, old = self._resolve(old_node, self.old_defs)
        new_name, new = self._resolve(new_node, self.new_defs)
        if old_name is not None and new_name is not None:
            # Keywords beside a $ref (a field's description and default) belong to the field.
            old_beside = {k: v for k, v in old_node.items() if k != "$ref"}
            new_beside = {k: v for k, v in new_node.items() if k != "$ref"}
            self._cosmetic(old_beside, new_beside, where)
            self._keywords(old_beside, new_beside, where)
            if (self.direction, old_name, new_name) in self.seen:
                return
            self.seen.add((self.direction, old_name, new_name))
            where = new_name
        elif old_name is not None or new_name is not None:
            old, new = _strip(old) if old_name else old, _strip(new) if new_name else new
        self._cosmetic(old, new, where)
        if "anyOf" in old or "oneOf" in old or "anyOf" in new or "oneOf" in new:
            self._union(old, new, where)
            return
        self._keywords(old, new, where)

    def _cosmetic(self, old: dict[str, Json], new: dict[str, Json], where: str) -> None:
        for key in _COSMETIC:
            if _js(old.get(key)) != _js(new.get(key)):
                self.add(ChangeLevel.PATCH, where, f"{key} changed")

    # -- unions ---------------------------------------------------------------------------------

    def _branches(self, node: dict[str, Json]) -> list[dict[str, Json]]:
        branches = node.get("anyOf", node.get("oneOf"))
        return [_dict(b) for b in branches] if isinstance(branches, list) else [node]

    def _key(self, branch: dict[str, Json]) -> str:
        if isinstance(branch.get("$ref"), str):
            return f"type {str(branch['$ref']).rsplit('/', 1)[-1]}"
        if "const" in branch:
            return f"value {_js(branch['const'])}"
        if "type" in branch:
            return f"{_js(branch['type']).strip(chr(34))}"
        return _js(branch)

    def _union(self, old: dict[str, Json], new: dict[str, Json], where: str) -> None:
        old_tags = _dict(_dict(old.get("discriminator")).get("mapping"))
        new_tags = _dict(_dict(new.get("discriminator")).get("mapping"))
        if old_tags and new_tags:
            for tag, ref in old_tags.items():
                if tag not in new_tags:
                    self.narrowed("", f"action type {tag!r} removed")
                else:
                    self.node({"$ref": ref}, {"$ref": new_tags[tag]}, where)
            for tag in new_tags:
                if tag not in old_tags:
                    self.widened("", f"action type {tag!r} added")
            return
        old_branches = {self._key(b): b for b in self._branches(_strip(old))}
        new_branches = {self._key(b): b for b in self._branches(_strip(new))}
        for key, branch in old_branches.items():
            if key in new_branches:
                self.node(branch, new_branches[key], where)
            else:
                self.narrowed(where, f"no longer accepts {key}")
        for key in new_branches:
            if key not in old_branches:
                self.widened(where, f"now also accepts {key}")
        self._default(old, new, where)

    # -- keywords -------------------------------------------------------------------------------

    def _keywords(self, old: dict[str, Json], new: dict[str, Json], where: str) -> None:
        self._types(old, new, where)
        self._values(old, new, where)
        self._bounds(old, new, where)
        self._object(old, new, where)
        if "items" in old or "items" in new:
            self.node(_dict(old.get("items")), _dict(new.get("items")), f"{where}[]")
        self._default(old, new, where)
        for key in sorted((set(old) | set(new)) - _HANDLED):
            if _js(old.get(key)) != _js(new.get(key)):
                change = self.widened if key not in new else self.narrowed
                change(where, f"{key} changed from {_js(old.get(key))} to {_js(new.get(key))}")

    def _default(self, old: dict[str, Json], new: dict[str, Json], where: str) -> None:
        if _js(old.get("default")) != _js(new.get("default")):
            before, after = _js(old.get("default")), _js(new.get("default"))
            self.add(ChangeLevel.MINOR, where, f"default changed from {before} to {after}")

    def _types(self, old: dict[str, Json], new: dict[str, Json], where: str) -> None:
        def types(node: dict[str, Json]) -> set[str]:
            value = node.get("type")
            return {value} if isinstance(value, str) else _strings(value)

        old_types, new_types = types(old), types(new)
        if not old_types or not new_types:
            if old_types != new_types:
                change = self.narrowed if new_types else self.widened
                change(where, f"type changed from {sorted(old_types)} to {sorted(new_types)}")
            return
        if "number" in new_types:
            new_types = new_types | {"integer"}
        if "number" in old_types:
            old_types = old_types | {"integer"}
        for lost in sorted(old_types - new_types):
            self.narrowed(where, f"no longer accepts {lost}")
        for gained in sorted(new_types - old_types):
            self.widened(where, f"now also accepts {gained}")

    def _values(self, old: dict[str, Json], new: dict[str, Json], where: str) -> None:
        def values(node: dict[str, Json]) -> set[str] | None:  # const is a one-value enum
            if "const" in node:
                return {_js(node["const"])}
            listed = node.get("enum")
            return {_js(value) for value in listed} if isinstance(listed, list) else None

        old_values, new_values = values(old), values(new)
        if old_values == new_values:
            return
        if old_values is None:
            self.narrowed(where, f"now restricted to {', '.join(sorted(new_values or ()))}")
        elif new_values is None:
            self.widened(where, "no longer restricted to listed values")
        else:
            for value in sorted(old_values - new_values):
                self.narrowed(where, f"value {value} removed")
            for value in sorted(new_values - old_values):
                self.widened(where, f"value {value} added")

    def _bounds(self, old: dict[str, Json], new: dict[str, Json], where: str) -> None:
        for keys, tighter in ((_LOWER_BOUNDS, 1), (_UPPER_BOUNDS, -1)):
            for key in keys:
                before, after = old.get(key), new.get(key)
                if _js(before) == _js(after):
                    continue
                if isinstance(before, int | float) and isinstance(after, int | float):
                    narrowed = (after - before) * tighter > 0
                else:  # a bound added narrows, a bound dropped widens
                    narrowed = before is None
                change = self.narrowed if narrowed else self.widened
                change(where, f"{key} changed from {_js(before)} to {_js(after)}")

    def _object(self, old: dict[str, Json], new: dict[str, Json], where: str) -> None:
        old_props, new_props = _dict(old.get("properties")), _dict(new.get("properties"))
        old_required, new_required = _strings(old.get("required")), _strings(new.get("required"))
        output = self.direction is Direction.OUTPUT
        for name, schema in old_props.items():
            if name not in new_props:
                # Old clients send it (refused now), or read it (it would fall back to a default).
                self.add(ChangeLevel.MAJOR, where, f"field {name!r} removed")
                continue
            if name in new_required and name not in old_required:
                self.narrowed(where, f"field {name!r} is now required")
            elif name in old_required and name not in new_required:
                self.widened(where, f"field {name!r} is now optional")
            self.node(_dict(schema), _dict(new_props[name]), f"{where}.{name}")
        for name in new_props:
            if name not in old_props:
                required = name in new_required
                # Old clients cannot send a new required field, nor read any new one (closed objects).
                level = ChangeLevel.MAJOR if required or output else ChangeLevel.MINOR
                self.add(level, where, f"{'required' if required else 'optional'} field {name!r} added")
        old_extra, new_extra = old.get("additionalProperties", True), new.get("additionalProperties", True)
        if isinstance(old_extra, dict) and isinstance(new_extra, dict):
            self.node(old_extra, new_extra, f"{where}{{}}")
        elif _js(old_extra) != _js(new_extra):
            closed = new_extra is False or (isinstance(new_extra, dict) and old_extra is True)
            change = self.narrowed if closed else self.widened
            change(where, f"additional properties {'narrowed' if closed else 'widened'}")


def _version(game: str, text: str) -> tuple[int, int, int]:
    parts = text.split(".")
    if len(parts) != 3 or not all(part.isdigit() for part in parts):
        msg = f"{game}: logic_version {text!r} is not MAJOR.MINOR.PATCH"
        raise SchemaExportError(msg)
    return int(parts[0]), int(parts[1]), int(parts[2])


def _games(files: Mapping[str, bytes]) -> dict[str, dict[str, Json]]:
    if "index.json" not in files:
        return {}
    return {
        name: _dict(game) for name, game in _dict(_dict(json.loads(files["index.json"])).get("games")).items()
    }


def _genuine(files: Mapping[str, bytes], game: dict[str, Json], path: str) -> bool:
    """True if ``path`` is in ``files`` as the export wrote it (a hand-edited file is no baseline)."""
    digest = _dict(game.get("files")).get(path)
    return path in files and hashlib.sha256(files[path]).hexdigest() == digest


def compare_exports(old: Mapping[str, bytes], new: Mapping[str, bytes]) -> list[SchemaChange]:
    """Every change to a game present in both exports (path -> bytes, as rendered), sorted.

    Games added or removed as a whole are not changes of a game. Files of ``old`` whose bytes
    do not match the digest its index lists (edited by hand) are not compared.
    """
    old_games, new_games = _games(old), _games(new)
    changes: list[SchemaChange] = []
    for game in sorted(set(old_games) & set(new_games)):
        differ = _Differ(game)
        old_files = list(_dict(old_games[game].get("files")))
        new_files = list(_dict(new_games[game].get("files")))
        for path in old_files:
            relative = path.removeprefix(f"{game}/")
            differ.direction = direction_of(relative)
            if path not in new_files:
                folder, _, name = relative.rpartition("/")
                if folder in ("actions", "requests"):
                    differ.narrowed("", f"action type {name.removesuffix('.json')!r} removed")
                else:
                    differ.add(ChangeLevel.MAJOR, "", f"document {relative} removed")
            elif _genuine(old, old_games[game], path) and path in new and old[path] != new[path]:
                differ.document(_dict(json.loads(old[path])), _dict(json.loads(new[path])), differ.direction)
        for path in new_files:
            if path not in old_files:
                relative = path.removeprefix(f"{game}/")
                differ.direction = direction_of(relative)
                folder, _, name = relative.rpartition("/")
                if folder in ("actions", "requests"):
                    differ.widened("", f"action type {name.removesuffix('.json')!r} added")
                else:
                    differ.add(ChangeLevel.MINOR, "", f"document {relative} added")
        changes += differ.changes.values()
    return sorted(changes)


def check_compatibility(old: Mapping[str, bytes], new: Mapping[str, bytes]) -> list[SchemaChange]:
    """Return every change from ``old`` to ``new``; raise if a game did not bump its version enough.

    Raises:
        BreakingChangeError: Naming each game, its versions, the bump it needs and every change.
        SchemaExportError: A logic version is not ``MAJOR.MINOR.PATCH``.
    """
    changes = compare_exports(old, new)
    old_games, new_games = _games(old), _games(new)
    problems: list[str] = []
    violations: list[SchemaChange] = []
    for game in sorted(set(old_games) & set(new_games)):
        before_text, after_text = str(old_games[game]["logic_version"]), str(new_games[game]["logic_version"])
        before, after = _version(game, before_text), _version(game, after_text)
        versions = f"logic {before_text} -> {after_text}"
        if after < before:
            problems.append(f"{game}: logic version went down ({versions})")
        mine = [change for change in changes if change.game == game]
        needed = max((_RANK[change.level] for change in mine), default=0)
        bumped = 2 if after[0] > before[0] else 1 if after[:2] > before[:2] else 0
        if needed > bumped:
            level = "major" if needed == 2 else "minor"
            late = [change for change in mine if _RANK[change.level] > bumped]
            violations += late
            problems += [f"{change} [{versions}, needs a {level} bump]" for change in late]
    if problems:
        raise BreakingChangeError(problems, violations)
    return changes
