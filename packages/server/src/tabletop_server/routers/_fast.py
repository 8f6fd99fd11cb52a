"""The hot routes, answered before FastAPI's routing.

A server's traffic is mostly actions, plus the view, the seat claims and the match creations
around them. ``FastPaths`` (an ASGI middleware) answers these directly: no per-request
dependency solving, no request object, no route matching over every route. It answers exactly
what the FastAPI routes answer (they stay, and describe these in the OpenAPI document), and it
hands a request it does not fully understand to them, untouched: a seat claim with a body, a
creation whose body does not validate (so the validation error is FastAPI's own), a body that
is not JSON.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import orjson
from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send
from tabletop import IllegalActionError

from tabletop_server import _lobby as lobby
from tabletop_server._api_models import CreateMatch
from tabletop_server._errors import ApiError
from tabletop_server._json import dumps
from tabletop_server._limits import replay_body
from tabletop_server._play import play_async
from tabletop_server._registry import GameRegistry
from tabletop_server._service import MatchService
from tabletop_server.routers.play import HEADER_LIMITS
from tabletop_server.storage import StorageError

__all__ = ["FastPaths"]

_ACTION = re.compile(r"^/api/matches/([^/]+)/actions/([^/]+)$")
_VIEW = re.compile(r"^/api/matches/([^/]+)/view$")
_SEAT = re.compile(r"^/api/matches/([^/]+)/seats/([^/]+)$")
_MATCHES = "/api/matches"
_HEADERS = frozenset(
    (b"authorization", b"if-match", b"x-tabletop-logic-version", b"content-type", b"idempotency-key")
)

Answer = tuple[int, bytes] | None
"""A status and JSON body, or None: let the FastAPI routes answer."""


class FastPaths:
    """ASGI middleware answering the hot routes (see the module's docstring).

    Args:
        app: The rest of the app.
        registry: The hosted games (which action types exist).
    """

    def __init__(self, app: ASGIApp, registry: GameRegistry) -> None:
        self.app = app
        self.known = {kind for entry in registry.entries() for kind in entry.user_action_types}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(_MATCHES):
            await self.app(scope, receive, send)
            return
        handler = self._handler(scope)
        if handler is None:
            await self.app(scope, receive, send)
            return
        read = await _read_body(receive) if scope["method"] == "POST" else b""
        if read is None:
            return  # the client went away
        body = read
        try:
            answer = await handler(scope, body)
        except ApiError as error:
            await error.response()(scope, receive, send)
            return
        except IllegalActionError as error:
            await ApiError.from_illegal(error).response()(scope, receive, send)
            return
        except StorageError as error:
            await ApiError(error.code, error.message).response()(scope, receive, send)
            return
        if answer is None:  # FastAPI's routes answer (with the body read here)
            await self.app(scope, replay_body(body, receive), send)
            return
        status, payload = answer
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(payload))]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": payload})

    def _handler(self, scope: Scope) -> Callable[[Scope, bytes], Awaitable[Answer]] | None:
        method, path = scope["method"], scope["path"]
        if method == "POST":
            if _ACTION.match(path):
                return self._action
            if _SEAT.match(path):
                return self._join
            if path == _MATCHES:
                return self._create
        elif method == "GET" and _VIEW.match(path):
            return self._view
        return None

    async def _action(self, scope: Scope, body: bytes) -> Answer:
        found = _ACTION.match(scope["path"])
        assert found is not None
        match_id, action_type = found.group(1), found.group(2)
        headers = _headers(scope, "authorization", "if-match", "x-tabletop-logic-version", "idempotency-key")
        service = _service(scope)
        if action_type not in self.known:
            await service.load_async(match_id)
            raise ApiError(
                "unknown-action-type", f"no hosted game has an action {action_type[:64]!r}", path="type"
            )
        response = await play_async(
            service,
            match_id,
            action_type,
            body,
            authorization=headers.get("authorization"),
            if_match=headers.get("if-match"),
            logic_version=headers.get("x-tabletop-logic-version"),
            idempotency_key=headers.get("idempotency-key"),
        )
        return 200, dumps(response)

    async def _view(self, scope: Scope, body: bytes) -> Answer:
        found = _VIEW.match(scope["path"])
        assert found is not None
        authorization = _headers(scope, "authorization").get("authorization")
        service = _service(scope)
        return 200, dumps(await service.io(service.view_for, found.group(1), authorization))

    async def _join(self, scope: Scope, body: bytes) -> Answer:
        if body.strip():  # a name to set: FastAPI's route validates it
            return None
        found = _SEAT.match(scope["path"])
        assert found is not None
        key = _headers(scope, "idempotency-key").get("idempotency-key")
        service = _service(scope)
        return 201, dumps(
            await service.io(lobby.join, service, found.group(1), found.group(2), None, None, key)
        )

    async def _create(self, scope: Scope, body: bytes) -> Answer:
        headers = _headers(scope, "idempotency-key")
        content_type = headers.get("content-type", "application/json")
        if content_type.split(";")[0].strip().lower() != "application/json":
            return None
        try:
            request = CreateMatch.model_validate(orjson.loads(body))
        except (orjson.JSONDecodeError, ValidationError):
            return None  # FastAPI's route gives its own error
        service = _service(scope)
        return 201, dumps(await service.io(lobby.create, service, request, headers.get("idempotency-key")))


def _service(scope: Scope) -> MatchService:
    found = scope["app"].state.service
    assert isinstance(found, MatchService)
    return found


def _headers(scope: Scope, *checked: str) -> dict[str, str]:
    """The headers the fast routes read; the ``checked`` ones within the length limits the
    typed routes declare."""
    headers: dict[str, str] = {}
    for key, value in scope["headers"]:
        if key in _HEADERS:
            headers[key.decode()] = value.decode("latin-1")
    for name, limit in HEADER_LIMITS:
        text = headers.get(name)
        if name in checked and text is not None and len(text) > limit:
            raise ApiError(
                "invalid-value", f"String should have at most {limit} characters", path=name, status=400
            )
    return headers


async def _read_body(receive: Receive) -> bytes | None:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)
