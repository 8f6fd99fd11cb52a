"""Per-client rate limits: match creations, seat claims, stream tokens and event streams.

Each limit is a token bucket per client: ``N`` requests at once, refilled at ``N`` per minute.
A request over a limit is answered ``429 rate-limited`` in the one error shape, with
``Retry-After`` (whole seconds until the bucket holds a token again). Event streams are also
capped by how many one client holds open at once.

A client is its IP address as uvicorn sees it (behind a reverse proxy: the forwarded address,
with uvicorn's ``--forwarded-allow-ips``/``FORWARDED_ALLOW_IPS`` naming the proxy); IPv6 clients
are grouped by their /64 network, which one host usually holds whole. The limits are per worker
process.
"""

from __future__ import annotations

import ipaddress
import math
import time
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from tabletop_server._errors import ApiError
from tabletop_server._json import JsonResponse
from tabletop_server._metrics import rate_limited

__all__ = ["Limits", "RateLimitMiddleware", "client_key"]

MAX_CLIENTS = 100_000
"""Buckets kept per limit; beyond it, full (idle) buckets are forgotten first."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Requests per minute per client (0: no limit) and open streams per client (0: no cap)."""

    create: int = 60
    claim: int = 120
    stream_token: int = 240
    stream: int = 120
    open_streams: int = 20


class _Buckets:
    """Token buckets of one limit, by client."""

    def __init__(self, per_minute: int) -> None:
        self.capacity = float(per_minute)
        self.rate = per_minute / 60.0
        self.levels: dict[str, tuple[float, float]] = {}

    def take(self, client: str, now: float) -> float:
        """Take one token for ``client``: 0 if there was one, else the seconds until there is."""
        level, stamp = self.levels.get(client, (self.capacity, now))
        level = min(self.capacity, level + (now - stamp) * self.rate)
        if level >= 1.0:
            self.levels[client] = (level - 1.0, now)
            if len(self.levels) > MAX_CLIENTS:
                self._forget(now)
            return 0.0
        self.levels[client] = (level, now)
        return (1.0 - level) / self.rate

    def _forget(self, now: float) -> None:
        full = self.capacity / self.rate
        self.levels = {c: (lv, t) for c, (lv, t) in self.levels.items() if now - t < full}
        while len(self.levels) > MAX_CLIENTS:  # all busy: drop the oldest entries
            del self.levels[next(iter(self.levels))]


def client_key(scope: Scope) -> str:
    """The client a request is counted against: its IP address (IPv6: its /64 network)."""
    client = scope.get("client")
    host = client[0] if client else "unknown"
    if ":" not in host:  # an IPv4 address parses only from its canonical form: it is its own key
        return host
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6:
        mapped = address.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _limit_of(method: str, path: str) -> str | None:
    """Which limit a request counts against (``/api/matches[/<id>/<tail>]``), if any."""
    if path == "/api/matches":
        return "create" if method == "POST" else None
    parts = path.split("/")  # "", "api", "matches", id, tail...
    if len(parts) == 5:
        tail = parts[4]
        if method == "POST":
            return {"fork": "create", "stream-tokens": "stream-token"}.get(tail)
        if method == "GET" and tail == "events":
            return "stream"
    elif len(parts) == 6 and parts[4] == "seats" and method == "POST":
        return "claim"
    return None


class RateLimitMiddleware:
    """Answers ``429 rate-limited`` (with ``Retry-After``) for a client over a limit.

    Args:
        app: The rest of the app.
        limits: The limits.
    """

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        per_minute = {
            "create": limits.create,
            "claim": limits.claim,
            "stream-token": limits.stream_token,
            "stream": limits.stream,
        }
        self.buckets = {name: _Buckets(n) for name, n in per_minute.items() if n > 0}
        self.open_streams: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/matches"):
            await self.app(scope, receive, send)
            return
        limit = _limit_of(scope["method"], scope["path"])
        if limit is None:
            await self.app(scope, receive, send)
            return
        client = client_key(scope)
        if limit == "stream" and 0 < self.limits.open_streams <= self.open_streams.get(client, 0):
            message = f"this client has {self.limits.open_streams} event streams open already; close one"
            await _refuse("open-streams", message, 5.0, scope, receive, send)
            return
        buckets = self.buckets.get(limit)
        if buckets is not None:
            wait = buckets.take(client, time.monotonic())
            if wait > 0:
                message = f"too many {limit} requests from this client; retry after the Retry-After seconds"
                await _refuse(limit, message, wait, scope, receive, send)
                return
        if limit != "stream":
            await self.app(scope, receive, send)
            return
        self.open_streams[client] = self.open_streams.get(client, 0) + 1
        try:
            await self.app(scope, receive, send)
        finally:
            left = self.open_streams[client] - 1
            if left:
                self.open_streams[client] = left
            else:
                del self.open_streams[client]


async def _refuse(limit: str, message: str, wait: float, scope: Scope, receive: Receive, send: Send) -> None:
    rate_limited(limit)
    error = ApiError("rate-limited", message)
    response = JsonResponse(
        error.body(), status_code=error.status, headers={"Retry-After": str(max(1, math.ceil(wait)))}
    )
    await response(scope, receive, send)
