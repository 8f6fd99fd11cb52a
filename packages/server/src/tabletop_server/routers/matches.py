"""Creating, listing and reading matches."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query

from tabletop_server import _lobby as lobby
from tabletop_server._api_models import CreatedMatch, CreateMatch, MatchInfo, MatchList
from tabletop_server._ending import end_match
from tabletop_server._json import JsonResponse
from tabletop_server.routers._deps import ERRORS, Authorization, IdempotencyKey, Service

__all__ = ["router"]

router = APIRouter(tags=["matches"], responses=ERRORS)


@router.post("/matches", status_code=201, response_model=CreatedMatch, operation_id="create_match")
async def create_match(
    request: CreateMatch, service: Service, idempotency_key: IdempotencyKey = None
) -> JsonResponse:
    """Start a match. The server draws a fresh secret PRNG key for it and never sends it. The
    answer carries the creator token and the seats' invites, once (the server keeps hashes)."""
    created = await service.io(lobby.create, service, request, idempotency_key)
    return JsonResponse(created, status_code=201)


@router.get("/matches", response_model=MatchList, operation_id="list_matches")
def list_matches(
    service: Service,
    game: Annotated[str | None, Query(max_length=64)] = None,
    status: Literal["in_progress", "finished", "ended"] | None = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> JsonResponse:
    """Public matches, newest first, optionally of one game and status."""
    return JsonResponse(service.list_matches(game, status, limit))


@router.get("/matches/{match_id}", response_model=MatchInfo, operation_id="get_match")
async def get_match(match_id: str, service: Service) -> JsonResponse:
    """A match's metadata."""
    return JsonResponse(await service.io(service.info, match_id))


@router.post("/matches/{match_id}/end", response_model=MatchInfo, operation_id="end_match")
def end(match_id: str, service: Service, authorization: Authorization = None) -> JsonResponse:
    """End the match with its creator token (``Authorization: Bearer``): it takes no more
    actions, seats or undos, and its bots stop. Ending an ended match changes nothing."""
    return JsonResponse(end_match(service, match_id, authorization))
