"""``GET /api/games``: the installed games."""

from __future__ import annotations

from fastapi import APIRouter

from tabletop_server._api_models import GamesList
from tabletop_server._clock_rules import clock_options
from tabletop_server._json import JsonResponse
from tabletop_server.routers._deps import Service

__all__ = ["router"]

router = APIRouter(tags=["games"])


@router.get("/games", response_model=GamesList, operation_id="list_games")
def list_games(service: Service) -> JsonResponse:
    """Every installed game with its player counts, config schema and logic version."""
    games = [
        {
            "name": entry.name,
            "title": entry.title,
            "description": entry.description,
            "min_players": entry.definition.min_players,
            "max_players": entry.definition.max_players,
            "logic_version": entry.definition.logic_version,
            "config_schema": entry.config_schema(),
            "action_types": list(entry.user_action_types),
            "hidden_information": entry.hidden_information,
            "clocks": clock_options(entry),
        }
        for entry in service.registry.entries()
    ]
    return JsonResponse({"games": games})
