"""Taking and leaving seats."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body
from starlette.responses import Response

from tabletop_server import _lobby as lobby
from tabletop_server._api_models import JoinRequest, JoinResult
from tabletop_server._json import JsonResponse
from tabletop_server.routers._deps import ERRORS, Authorization, IdempotencyKey, Service

__all__ = ["router"]

router = APIRouter(tags=["seats"], responses=ERRORS)


@router.post(
    "/matches/{match_id}/seats/{player_id}",
    status_code=201,
    response_model=JoinResult,
    operation_id="join_seat",
)
async def join_seat(
    match_id: str,
    player_id: str,
    service: Service,
    request: Annotated[JoinRequest | None, Body()] = None,
    idempotency_key: IdempotencyKey = None,
) -> JsonResponse:
    """Take a free seat: its token is returned once (the server keeps only a hash). A private
    match's seat needs its ``invite`` (or the creator token)."""
    name = None if request is None else request.name
    invite = None if request is None else request.invite
    joined = await service.io(lobby.join, service, match_id, player_id, name, invite, idempotency_key)
    return JsonResponse(joined, status_code=201)


@router.delete("/matches/{match_id}/seats/{player_id}", status_code=204, operation_id="leave_seat")
def leave_seat(
    match_id: str, player_id: str, service: Service, authorization: Authorization = None
) -> Response:
    """Leave the seat the token holds; the token stops working."""
    lobby.leave(service, match_id, player_id, authorization)
    return Response(status_code=204)
