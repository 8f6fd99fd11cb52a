"""The body byte limit, enforced before anything parses a request."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tabletop_server._errors import ApiError

__all__ = ["BodyLimitMiddleware", "replay_body"]


def replay_body(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app ``body`` (already read) first, then the client's messages."""
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class BodyLimitMiddleware:
    """Answers ``413 payload-too-large`` for a body over ``max_bytes`` (declared or streamed).

    The body is read (at most ``max_bytes`` of it) before the app runs, then handed on; a body
    that turns out longer is refused without being parsed.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _too_large(self) -> ApiError:
        return ApiError("payload-too-large", f"the body is over {self.max_bytes} bytes")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_bytes:
                    await self._too_large().response()(scope, receive, send)
                    return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._too_large().response()(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        await self.app(scope, replay_body(b"".join(chunks), receive), send)
