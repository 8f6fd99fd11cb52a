"""Rematch: the next match of a finished one, with the same seats."""

from __future__ import annotations

from fastapi import APIRouter

from tabletop_server._host_models import RematchResult
from tabletop_server._json import JsonResponse
from tabletop_server._rematch import rematch
from tabletop_server.routers._deps import ERRORS, Authorization, Service

__all__ = ["router"]

router = APIRouter(tags=["matches"], responses=ERRORS)


@router.post("/matches/{match_id}/rematch", response_model=RematchResult, operation_id="rematch")
def ask_rematch(match_id: str, service: Service, authorization: Authorization = None) -> JsonResponse:
    """The rematch of a finished match (created by the first seat that asks: same game, config and
    seats, bots stay bots, a fresh seed and key), and a new token for the caller's seat in it."""
    return JsonResponse(rematch(service, match_id, authorization))
