"""What the routes share: the service, the caller's seat, the error responses they document."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from tabletop_server._errors import ErrorBody
from tabletop_server._service import MatchService

__all__ = ["ERRORS", "Authorization", "IdempotencyKey", "Service", "service"]


def service(request: Request) -> MatchService:
    """The app's matches service."""
    found = request.app.state.service
    assert isinstance(found, MatchService)
    return found


async def _injected(request: Request) -> MatchService:
    # ``async``: FastAPI runs a plain function dependency in the thread pool (a thread hand-off
    # per request for a dictionary lookup).
    return service(request)


Service = Annotated[MatchService, Depends(_injected)]
"""The matches service, injected."""

Authorization = Annotated[
    str | None,
    Header(description="`Bearer <seat token>`; without it the caller is a spectator.", max_length=512),
]
"""The caller's seat token, if any."""

IdempotencyKey = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        description="A key of your choosing (16 to 64 characters; a random UUID): a retry with the same "
        "key and request gets the original result instead of a second change; the same key with "
        "another request is `409 idempotency-key-reused`.",
        max_length=64,
    ),
]
"""The client's idempotency key, if any."""

ERRORS: dict[int | str, dict[str, object]] = {
    status: {"model": ErrorBody, "description": description}
    for status, description in [
        (400, "Unreadable or ill-formed request"),
        (401, "A token is needed and missing or unknown"),
        (403, "The token's seat may not do this"),
        (404, "No such game, match or seat"),
        (409, "The match moved on, or the request conflicts with it"),
        (413, "The body is over the byte limit"),
        (422, "The rules refuse the action"),
        (429, "A per-client rate limit: retry after `Retry-After` seconds"),
        (503, "The database cannot be reached or its disk is full: retry later"),
    ]
}
"""The error responses every route may give (one shape: ``ErrorBody``)."""
