"""The exported OpenAPI document is what the app generates: one typed route per action type."""

from __future__ import annotations

from pathlib import Path

from tabletop.games import available, load
from tabletop.schemas import game_title
from tabletop_server import OPENAPI_PATH, Settings, check_openapi, create_app, render_openapi

ROOT = Path(__file__).resolve().parents[2]


def _app() -> object:
    return create_app(Settings(db="sqlite:///unused.sqlite3", ui_dir=None, migrate=False))


def test_the_committed_openapi_document_is_up_to_date() -> None:
    app = _app()
    assert check_openapi(app, ROOT / OPENAPI_PATH), "run `tabletop server openapi export`"  # type: ignore[arg-type]


def test_every_user_action_type_of_every_game_has_a_route_with_its_request_body() -> None:
    document = _app().openapi()  # type: ignore[attr-defined]
    schemas = document["components"]["schemas"]
    for game in available():
        definition = load(game)
        for tag, action in definition.action_by_type.items():
            path = f"/api/matches/{{match_id}}/actions/{tag}"
            if getattr(action, "system_only", False) or not action.is_enumerable():
                assert path not in document["paths"]
                continue
            body = document["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
            refs = [body["$ref"]] if "$ref" in body else [branch["$ref"] for branch in body["oneOf"]]
            name = f"{game_title(game)}{tag}Request"
            assert f"#/components/schemas/{name}" in refs
            schema = schemas[name]
            assert schema["additionalProperties"] is False and schema["properties"]["type"]["const"] == tag
            assert "player_id" not in schema.get("required", [])


def test_rendering_is_stable() -> None:
    assert render_openapi(_app()) == render_openapi(_app())  # type: ignore[arg-type]
