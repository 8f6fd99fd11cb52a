"""Server-sent events: single-use stream tokens, then one stream per match and perspective."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse

from tabletop_server._api_models import StreamToken
from tabletop_server._errors import ApiError
from tabletop_server._json import JsonResponse
from tabletop_server._service import storage_error
from tabletop_server._streams import MatchStream
from tabletop_server.routers._deps import ERRORS, Authorization, Service
from tabletop_server.storage import StorageError

__all__ = ["router"]

router = APIRouter(tags=["events"], responses=ERRORS)


@router.post(
    "/matches/{match_id}/stream-tokens",
    status_code=201,
    response_model=StreamToken,
    operation_id="create_stream_token",
)
def create_stream_token(match_id: str, service: Service, authorization: Authorization = None) -> JsonResponse:
    """A single-use, short-lived token for the event stream, bound to the caller's seat (or spectator)."""
    player_id = service.authenticate(match_id, authorization)
    return JsonResponse(service.stream_token(match_id, player_id), status_code=201)


def _last_event_id(header: str | None, query: int | None) -> int | None:
    if header is None or not header.strip():
        return query
    try:
        value = int(header.strip())
    except ValueError:
        raise ApiError(
            "invalid-header", "Last-Event-ID must be an action index", path="Last-Event-ID"
        ) from None
    if not -1 <= value < 2**31:
        raise ApiError("invalid-header", "Last-Event-ID must be an action index", path="Last-Event-ID")
    return value


@router.get(
    "/matches/{match_id}/events",
    operation_id="match_events",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}, "description": "The event stream"}},
)
async def match_events(
    match_id: str,
    request: Request,
    service: Service,
    stream_token: Annotated[str, Query(max_length=128)],
    last_event_id: Annotated[int | None, Query(ge=-1, le=2**31 - 1)] = None,
    last_event_id_header: Annotated[str | None, Header(alias="Last-Event-ID", max_length=16)] = None,
) -> StreamingResponse:
    """``snapshot``, then ``update`` per accepted submission (``reset`` after an undo or a
    migration, carrying the view of the logic version the match now runs); event ids are action
    indices, and ``Last-Event-ID`` resumes after the last one received."""
    resume = _last_event_id(last_event_id_header, last_event_id)

    def redeem() -> str | None:
        try:
            return service.store.redeem_stream_token(match_id, stream_token).player_id
        except StorageError as error:
            service.load(match_id)  # an unknown match is a 404
            raise storage_error(error) from None

    player_id = await run_in_threadpool(redeem)
    subscription = service.hub.subscribe(match_id)
    stream = MatchStream(
        service, subscription, match_id, player_id, resume, service.settings.keepalive_seconds
    )
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream.events(), media_type="text/event-stream", headers=headers)
