"""Server-sent events: single-use stream tokens, then one stream per match and perspective."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Query, Request
from starlette.concurrency import run_in_threadpool
from starlette.responses import Response, StreamingResponse
from starlette.types import Receive, Scope, Send

from tabletop_server import _lobby as lobby
from tabletop_server._api_models import StreamToken
from tabletop_server._errors import ApiError
from tabletop_server._json import JsonResponse
from tabletop_server._service import storage_error
from tabletop_server._streams import MatchStream, end_frame
from tabletop_server.events import BoundedWriter
from tabletop_server.routers._deps import ERRORS, Authorization, Service
from tabletop_server.storage import InvalidStreamTokenError, StorageError, StreamGrant

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
    return JsonResponse(lobby.stream_token(service, match_id, authorization), status_code=201)


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
) -> Response:
    """``snapshot``, then ``update`` per accepted submission (``reset`` after an undo or a
    migration, carrying the view of the logic version the match now runs); event ids are action
    indices, and ``Last-Event-ID`` resumes after the last one received. ``end``
    (``{code, message, path}``) closes the stream: ``invalid-token`` when the seat token that
    minted the stream token no longer holds the seat, ``storage-unavailable`` when the database
    failed before the first event (the stream token is then still unused)."""
    resume = _last_event_id(last_event_id_header, last_event_id)
    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    store = service.store

    def check() -> StreamGrant:
        try:
            return store.check_stream_token(match_id, stream_token)
        except InvalidStreamTokenError as error:
            service.load(match_id)  # an unknown match is a 404
            raise storage_error(error) from None
        except StorageError as error:
            raise storage_error(error) from None

    def redeem() -> None:
        try:
            store.redeem_stream_token(match_id, stream_token)
        except StorageError as error:
            raise storage_error(error) from None

    subscription = service.hub.subscribe(match_id)  # before the first read: no change is missed
    try:
        grant = await run_in_threadpool(check)
        stream = MatchStream(
            service,
            subscription,
            match_id,
            grant.player_id,
            resume,
            service.settings.keepalive_seconds,
            seat_token_hash=grant.seat_token_hash,
            shared=request.app.state.stream_steps,
        )
        first = await run_in_threadpool(stream.first)
        await run_in_threadpool(redeem)  # spent only now that the first event is ready
    except ApiError as error:
        subscription.close()
        if error.status != 503:
            raise
        return Response(end_frame(error), media_type="text/event-stream", headers=headers)
    except BaseException:
        subscription.close()
        raise
    writer = BoundedWriter(
        stream.events(first),
        headers=headers,
        buffer=service.settings.stream_buffer_frames,
        drop_after=service.settings.stream_drop_seconds,
        counter=service.streams,
    )
    return _AsgiResponse(writer)


class _AsgiResponse(Response):
    """A response that is an ASGI app of its own (the event stream's bounded writer)."""

    def __init__(self, app: BoundedWriter) -> None:
        super().__init__(media_type="text/event-stream")
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
