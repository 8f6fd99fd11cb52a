"""The OpenAPI document: generated from the app, with each game's action bodies as components."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from tabletop_server._registry import GameRegistry, JsonSchema

__all__ = ["OPENAPI_PATH", "check_openapi", "export_openapi", "install_openapi", "render_openapi"]

OPENAPI_PATH = Path("schemas/server/openapi.json")
"""Where the exported document lives, relative to the workspace root."""


def install_openapi(app: FastAPI, registry: GameRegistry) -> None:
    """Make ``app.openapi()`` include every game's request-body components."""

    def openapi() -> dict[str, object]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        document = get_openapi(
            title=app.title, version=app.version, description=app.description, routes=app.routes
        )
        components = cast(dict[str, object], document.setdefault("components", {}))
        schemas = cast(dict[str, JsonSchema], components.setdefault("schemas", {}))
        for entry in registry.entries():
            schemas.update(entry.schema_components)
            for action_type, body in entry.body_schemas.items():
                schemas[f"{entry.schema_prefix}{action_type}Request"] = dict(body)
        document["components"] = {**components, "schemas": dict(sorted(schemas.items()))}
        app.openapi_schema = document
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def render_openapi(app: FastAPI) -> str:
    """The document as canonical text (sorted keys, two-space indent, final newline)."""
    return json.dumps(app.openapi(), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def export_openapi(app: FastAPI, path: Path = OPENAPI_PATH) -> Path:
    """Write the document to ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_openapi(app), encoding="utf-8")
    return path


def check_openapi(app: FastAPI, path: Path = OPENAPI_PATH) -> bool:
    """True if ``path`` holds exactly the document ``app`` generates."""
    return path.is_file() and path.read_text(encoding="utf-8") == render_openapi(app)
