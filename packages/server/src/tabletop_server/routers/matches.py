"""Creating, listing and reading matches."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from tabletop_server._api_models import CreateMatch, MatchInfo, MatchList
from tabletop_server._json import JsonResponse
from tabletop_server.routers._deps import ERRORS, Service

__all__ = ["router"]

router = APIRouter(tags=["matches"], responses=ERRORS)


@router.post("/matches", status_code=201, response_model=MatchInfo, operation_id="create_match")
async def create_match(request: CreateMatch, service: Service) -> JsonResponse:
    """Start a match. The server draws a fresh secret PRNG key for it and never sends it."""
    return JsonResponse(await service.io(service.create, request), status_code=201)


@router.get("/matches", response_model=MatchList, operation_id="list_matches")
def list_matches(
    service: Service,
    game: Annotated[str | None, Query(max_length=64)] = None,
    status: Literal["in_progress", "finished"] | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> JsonResponse:
    """Matches, newest first, optionally of one game and status."""
    return JsonResponse(service.list_matches(game, status, limit))


@router.get("/matches/{match_id}", response_model=MatchInfo, operation_id="get_match")
async def get_match(match_id: str, service: Service) -> JsonResponse:
    """A match's metadata."""
    return JsonResponse(await service.io(service.info, match_id))
