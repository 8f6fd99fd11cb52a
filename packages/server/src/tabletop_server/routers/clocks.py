"""Clocks and absent players: a match's clock and timeouts, and bots standing in for seats."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body
from starlette.responses import Response

from tabletop_server._api_models import BotSpec, ClockReport, StandIn, StandInRequest
from tabletop_server._json import JsonResponse
from tabletop_server._stand_ins import clock_report, hand_to_bot, take_back
from tabletop_server.routers._deps import ERRORS, Authorization, Service

__all__ = ["router"]

router = APIRouter(tags=["clocks"], responses=ERRORS)


@router.get("/matches/{match_id}/clock", response_model=ClockReport, operation_id="get_clock")
def get_clock(match_id: str, service: Service) -> JsonResponse:
    """The match's clock as of the server's time, its recorded timeouts (what the server
    observed and did), and the seats bots play for."""
    return JsonResponse(clock_report(service, match_id))


@router.post(
    "/matches/{match_id}/seats/{player_id}/stand-in", response_model=StandIn, operation_id="hand_seat_to_bot"
)
def hand_seat_to_bot(
    match_id: str,
    player_id: str,
    service: Service,
    authorization: Authorization = None,
    request: Annotated[StandInRequest | None, Body()] = None,
) -> JsonResponse:
    """Let a bot play for the seat, from the seat's view, until its holder takes it back: with
    the seat's token ("let a bot play for me") or the match's creator token."""
    bot = BotSpec() if request is None else request.bot
    return JsonResponse(hand_to_bot(service, match_id, player_id, authorization, bot))


@router.delete(
    "/matches/{match_id}/seats/{player_id}/stand-in", status_code=204, operation_id="take_seat_back"
)
def take_seat_back(
    match_id: str, player_id: str, service: Service, authorization: Authorization = None
) -> Response:
    """Take the seat back from its bot, with the seat's token."""
    take_back(service, match_id, player_id, authorization)
    return Response(status_code=204)
