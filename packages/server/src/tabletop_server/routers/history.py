"""Undo, fork, and the views of past states."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Path, Query

from tabletop_server._api_models import ForkRequest, ForkResult, ViewResponse
from tabletop_server._errors import ApiError
from tabletop_server._history import fork, undo
from tabletop_server._host_models import FullLogPage, HistoryView, Verification
from tabletop_server._json import JsonResponse
from tabletop_server._service import MAX_LOG_PAGE
from tabletop_server._timeline import full_log_page, verification, view_at
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


@router.get("/matches/{match_id}/history/{index}", response_model=HistoryView, operation_id="view_at")
def history_view(
    match_id: str,
    index: Annotated[int, Path(ge=0, le=1_000_000_000)],
    service: Service,
    authorization: Authorization = None,
) -> JsonResponse:
    """The caller's view of the match as it was after its first ``index`` actions, and the
    actions before it, as the caller's seat may see them (a spectator's without a token)."""
    player_id = service.authenticate(match_id, authorization)
    return JsonResponse(view_at(service, match_id, player_id, index))


@router.get("/matches/{match_id}/verification", response_model=Verification, operation_id="verify_match")
def verify(match_id: str, service: Service) -> JsonResponse:
    """Replay the match's public record (info, spectator log and view, full log) with its revealed
    key, as ``tabletop verify`` does: whether the key matches the commitment, the full log (every
    outcome and hidden choice) replays, the spectator log is its projection, and the final state
    reproduces. Before the end the key is not revealed and nothing verifies."""
    return JsonResponse(verification(service, match_id))


@router.get("/matches/{match_id}/full-log", response_model=FullLogPage, operation_id="get_full_log")
def get_full_log(
    match_id: str,
    service: Service,
    after: Annotated[int, Query(ge=-1, le=2**31 - 1)] = -1,
    limit: Annotated[int, Query(ge=1, le=MAX_LOG_PAGE)] = MAX_LOG_PAGE,
) -> JsonResponse:
    """The action log of a finished or ended match as recorded, unprojected (hidden bids, hands
    and dealt cards included), for anyone, after index ``after``: at most ``limit`` actions
    (1,000 at most); ``next_after`` is the ``after`` of the next page (null at the end).
    ``409 not-over`` while the match runs."""
    return JsonResponse(full_log_page(service, match_id, after, limit))
