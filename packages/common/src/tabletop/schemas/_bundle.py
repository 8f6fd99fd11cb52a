"""One self-contained schema per game (and one for ``common``), as client generators consume them.

Every document of a folder becomes a ``$defs`` entry named by its title, next to the documents'
own ``$defs`` (the export guarantees a name means one schema across a folder). The root is an
object with one property per document (``state``, ``action``, ``actions/AddAmount``, ...), so
each generated module also has an index type ``<Game>Documents``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from tabletop.schemas._documents import game_title
from tabletop.schemas._generator import Document, SchemaExportError

__all__ = ["bundle_folder", "bundles"]


def bundle_folder(title: str, documents: Mapping[str, Document]) -> Document:
    """Bundle one folder's documents (by path relative to the folder) under a root titled ``title``.

    Raises:
        SchemaExportError: Two documents give one name to different schemas.
    """
    definitions: dict[str, object] = {}
    properties: dict[str, object] = {}

    def define(name: str, schema: object) -> None:
        if name in definitions and definitions[name] != schema:
            msg = f"{title}: {name!r} names two different schemas"
            raise SchemaExportError(msg)
        definitions[name] = schema

    for path, document in sorted(documents.items()):
        nested = document.get("$defs", {})
        assert isinstance(nested, dict)
        for name, schema in nested.items():
            define(name, schema)
        root = {key: value for key, value in document.items() if key != "$defs"}
        name = str(root["title"])
        define(name, root)
        properties[path.removesuffix(".json")] = {"$ref": f"#/$defs/{name}"}
    return {
        "$defs": definitions,
        "additionalProperties": False,
        "description": f"Every document of {title}, by its path (without .json).",
        "properties": properties,
        "required": sorted(properties),
        "title": f"{title}Documents",
        "type": "object",
    }


def bundles(files: Mapping[str, bytes]) -> dict[str, Document]:
    """One bundle per folder of an export (path -> bytes, with ``index.json``), by folder name."""
    index = json.loads(files["index.json"])
    folders: dict[str, list[str]] = {"common": list(index["common"]["files"])}
    folders.update({name: list(game["files"]) for name, game in index["games"].items()})
    result: dict[str, Document] = {}
    for folder, paths in folders.items():
        documents = {path.removeprefix(f"{folder}/"): json.loads(files[path]) for path in paths}
        title = "Common" if folder == "common" else game_title(folder)
        result[folder] = bundle_folder(title, documents)
    return result
