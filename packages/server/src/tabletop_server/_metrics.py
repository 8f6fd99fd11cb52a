"""Prometheus metrics: the metric objects, the small functions the server's parts call, the scrape.

One registry per process. With several workers (``tabletop serve --workers N``) the parent sets
``PROMETHEUS_MULTIPROC_DIR`` before the workers start, so every worker writes its samples to
files there and any worker's ``/metrics`` answers for all of them (prometheus_client's
multiprocess mode; gauges sum the live workers). A worker that was killed leaves its files; the
next worker that starts marks every dead process's gauges gone.

Labels are bounded: a route is its template (``/api/matches/{match_id}/view``), an action route
names its action type only if a hosted game has it.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Collection, Iterable
from pathlib import Path

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "CONTENT_TYPE_LATEST",
    "MULTIPROC_ENV",
    "MetricsMiddleware",
    "bot_decided",
    "bot_queue",
    "clean_dead_workers",
    "connection_closed",
    "rate_limited",
    "route_of",
    "scrape",
    "storage_failed",
    "stream_closed",
    "stream_opened",
]

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
"""The environment variable of prometheus_client's multiprocess mode (a folder of sample files)."""

_LATENCY = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
_DECISIONS = (0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)

REQUESTS = Counter(
    "tabletop_http_requests",
    "HTTP requests answered, by route template, method and status",
    ["route", "method", "status"],
)
REQUEST_SECONDS = Histogram(
    "tabletop_http_request_duration_seconds",
    "Time to answer a request (event streams excluded), by route template: the action routes "
    "are /api/matches/{match_id}/actions/<type>",
    ["route", "method"],
    buckets=_LATENCY,
)
BOT_QUEUE = Gauge(
    "tabletop_bot_queue_depth",
    "Matches whose bot seats wait for or are in a decision",
    multiprocess_mode="livesum",
)
BOT_DECISION_SECONDS = Histogram(
    "tabletop_bot_decision_seconds", "Time one bot decision took, by bot kind", ["kind"], buckets=_DECISIONS
)
STREAMS = Gauge("tabletop_event_streams_open", "Event streams open now", multiprocess_mode="livesum")
STORAGE_ERRORS = Counter(
    "tabletop_storage_errors", "Database failures answered as 503, by error code", ["code"]
)
RATE_LIMITED = Counter("tabletop_rate_limited", "Requests refused with 429, by limit", ["limit"])
CONNECTIONS_CLOSED = Counter(
    "tabletop_connections_closed",
    "Connections the server closed itself: timeout (no complete request in time), evicted "
    "(an idle connection closed to make room at the cap), refused (the cap was reached)",
    ["reason"],
)


def bot_queue(depth: int) -> None:
    """The bot runner's queue depth of this process changed to ``depth``."""
    BOT_QUEUE.set(depth)


def bot_decided(kind: str, seconds: float) -> None:
    """A bot of ``kind`` (``random``, ``mcts``) took ``seconds`` to decide."""
    BOT_DECISION_SECONDS.labels(kind).observe(seconds)


def stream_opened() -> None:
    """An event stream started sending."""
    STREAMS.inc()


def stream_closed() -> None:
    """An event stream ended."""
    STREAMS.dec()


def storage_failed(code: str) -> None:
    """A database operation failed with the storage error ``code`` (``storage-unavailable``...)."""
    STORAGE_ERRORS.labels(code).inc()


def rate_limited(limit: str) -> None:
    """A request was refused by the rate limit ``limit``."""
    RATE_LIMITED.labels(limit).inc()


def connection_closed(reason: str) -> None:
    """The server closed a connection itself (``timeout``, ``evicted``, ``refused``)."""
    CONNECTIONS_CLOSED.labels(reason).inc()


def clean_dead_workers() -> None:
    """Multiprocess mode: drop the live gauges of worker processes that are gone (killed ones
    never said so)."""
    folder = os.environ.get(MULTIPROC_ENV)
    if not folder:
        return
    for path in Path(folder).glob("gauge_live*_*.db"):
        pid = path.stem.rsplit("_", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            multiprocess.mark_process_dead(int(pid), folder)  # type: ignore[no-untyped-call]


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def scrape() -> bytes:
    """The metrics in Prometheus's text format: every worker's, in multiprocess mode."""
    folder = os.environ.get(MULTIPROC_ENV)
    if not folder:
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=folder)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


_MATCH = re.compile(r"^/api/matches/[^/]+(/.*)?$")
_FIXED = {"/api/games", "/api/matches", "/api/openapi.json", "/api/docs", "/livez", "/readyz", "/metrics"}
_UNDER_MATCH = {"", "/view", "/actions", "/stream-tokens", "/events", "/undo", "/fork"}


def route_of(path: str, action_types: Collection[str]) -> str:
    """The route template of ``path`` (a bounded label: unknown paths share one)."""
    if path in _FIXED:
        return path
    found = _MATCH.match(path)
    if found is not None:
        tail = found.group(1) or ""
        if tail in _UNDER_MATCH:
            return "/api/matches/{match_id}" + tail
        if tail.startswith("/seats/") and tail.count("/") == 2:
            return "/api/matches/{match_id}/seats/{player_id}"
        if tail.startswith("/actions/") and tail.count("/") == 2:
            kind = tail[len("/actions/") :]
            return "/api/matches/{match_id}/actions/" + (kind if kind in action_types else "{unknown}")
    if path.startswith("/api/"):
        return "/api/{unknown}"
    return "/{ui}"


class MetricsMiddleware:
    """Counts every request by route, method and status, and times it (the outermost layer).

    Args:
        app: The rest of the app.
        action_types: The hosted games' action types (the action routes' labels).
    """

    def __init__(self, app: ASGIApp, action_types: Iterable[str]) -> None:
        self.app = app
        self.action_types = frozenset(action_types)
        self._counts: dict[tuple[str, str, int], Counter] = {}  # label lookups cost more than
        self._times: dict[tuple[str, str], Histogram] = {}  # the counting: keep the children

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500
        streaming = False

        async def sending(message: Message) -> None:
            nonlocal status, streaming
            if message["type"] == "http.response.start":
                status = message["status"]
                for key, value in message.get("headers", ()):
                    if key == b"content-type" and value.startswith(b"text/event-stream"):
                        streaming = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = route_of(scope["path"], self.action_types)
            method = scope["method"]
            counter = self._counts.get((route, method, status))
            if counter is None:
                counter = self._counts[route, method, status] = REQUESTS.labels(route, method, str(status))
            counter.inc()
            if not streaming:
                timer = self._times.get((route, method))
                if timer is None:
                    timer = self._times[route, method] = REQUEST_SECONDS.labels(route, method)
                timer.observe(time.perf_counter() - started)
