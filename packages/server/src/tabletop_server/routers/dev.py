"""The developer panel's routes (``tabletop serve --dev``); ``404 dev-mode-off`` otherwise."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query
from tabletop import Model

from tabletop_server._dev import DevBotMove, DevInspection, DevStatus, bot_move, check_dev, inspect
from tabletop_server._json import JsonResponse
from tabletop_server.routers._deps import ERRORS, Service

__all__ = ["router"]

router = APIRouter(tags=["dev"], responses=ERRORS)


class BotMoveRequest(Model):
    """Whose move the panel asks for."""

    player_id: str | None = None
    """The seat to move (null: the first active seat that has a move)."""


@router.get("/dev", response_model=DevStatus, operation_id="dev_status")
def dev_status(service: Service) -> JsonResponse:
    """Whether the developer panel is on: 200 with ``--dev``, else ``404 dev-mode-off``."""
    check_dev(service)
    return JsonResponse({"enabled": True})


@router.get("/dev/matches/{match_id}", response_model=DevInspection, operation_id="dev_inspect")
def dev_inspect(
    match_id: str,
    service: Service,
    index: Annotated[
        int | None, Query(ge=0, description="show the match after this many actions (default: now)")
    ] = None,
) -> JsonResponse:
    """The full state, the spectator's and every seat's view after the first ``index`` actions,
    and the whole log in full: time travel by replay, nothing is written."""
    return JsonResponse(inspect(service, match_id, index))


@router.post("/dev/matches/{match_id}/bot-move", response_model=DevBotMove, operation_id="dev_bot_move")
def dev_bot_move(
    match_id: str, service: Service, request: Annotated[BotMoveRequest | None, Body()] = None
) -> JsonResponse:
    """Play one random legal action for a seat (any seat, human or bot), as that seat."""
    return JsonResponse(bot_move(service, match_id, None if request is None else request.player_id))
