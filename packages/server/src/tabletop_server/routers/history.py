"""Undo and fork."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from tabletop_server._api_models import ForkRequest, ForkResult, ViewResponse
from tabletop_server._errors import ApiError
from tabletop_server._history import fork, undo
from tabletop_server._json import JsonResponse
from tabletop_server.routers._deps import ERRORS, Authorization, IdempotencyKey, Service

__all__ = ["router"]

router = APIRouter(tags=["history"], responses=ERRORS)


@router.post("/matches/{match_id}/undo", response_model=ViewResponse, operation_id="undo")
def undo_action(
    match_id: str,
    service: Service,
    authorization: Authorization = None,
    idempotency_key: IdempotencyKey = None,
) -> JsonResponse:
    """Undo the seat's own last action, if no later action revealed information and no other
    player acted since (except within one simultaneous group)."""
    player_id = service.authenticate(match_id, authorization)
    if player_id is None:
        service.load(match_id)
        raise ApiError("missing-token", "undo needs a seat token")
    return JsonResponse(undo(service, match_id, player_id, idempotency_key))


@router.post("/matches/{match_id}/fork", status_code=201, response_model=ForkResult, operation_id="fork")
def fork_match(
    match_id: str,
    service: Service,
    request: Annotated[ForkRequest | None, Body()] = None,
    authorization: Authorization = None,
    idempotency_key: IdempotencyKey = None,
) -> JsonResponse:
    """Fork the match after its first ``index`` actions into a new match; hidden values are
    re-sampled from the forker's own view."""
    player_id = service.authenticate(match_id, authorization)
    index = None if request is None else request.index
    return JsonResponse(fork(service, match_id, player_id, index, idempotency_key), status_code=201)
