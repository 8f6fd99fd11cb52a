"""tabletop_server: the HTTP host for every installed tabletop game.

``create_app(Settings(...))`` builds the FastAPI app (``tabletop serve`` runs it with uvicorn):
matches stored in SQLite or PostgreSQL, seats with hashed tokens, projected views, one typed
route per action type, undo, fork, bot seats and server-sent events. The HTTP contract is
``packages/server/API.md``; the OpenAPI document is exported to ``schemas/server/openapi.json``.
"""

from tabletop_server._app import create_app
from tabletop_server._errors import ApiError, ErrorBody
from tabletop_server._openapi import OPENAPI_PATH, check_openapi, export_openapi, render_openapi
from tabletop_server._registry import GameEntry, GameRegistry
from tabletop_server._settings import Settings
from tabletop_server.events import EventHub, InProcessHub, MatchChange, Subscription

__all__ = [
    "OPENAPI_PATH",
    "ApiError",
    "ErrorBody",
    "EventHub",
    "GameEntry",
    "GameRegistry",
    "InProcessHub",
    "MatchChange",
    "Settings",
    "Subscription",
    "check_openapi",
    "create_app",
    "export_openapi",
    "render_openapi",
]
