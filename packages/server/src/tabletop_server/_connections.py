"""The connection guard: a deadline for each request, a cap on open connections, the file limit.

uvicorn closes a connection idle after a response (``timeout_keep_alive``), but not one that
never completes a request: half-sent headers, a half-sent body or a silent socket stay open
until the client goes away, and enough of them exhaust the process's file descriptors, after
which every new connection fails. :class:`GuardedHttpProtocol` (uvicorn's httptools protocol,
which ``tabletop serve`` uses) adds:

- a deadline: a connection must send a complete request (headers and body) within
  ``request_timeout`` seconds of opening, or of its previous response; else it is closed (by a
  sweep that looks every quarter of the timeout, so within a quarter more). A request being
  answered (an event stream included) has no deadline.
- a cap: at ``max_connections`` open connections, a new one makes the server close the
  connection that has waited longest without a request in progress (a silent or half-sent one);
  if every connection has a request in progress, the new one gets a ``503`` and is closed.

:func:`raise_open_file_limit` lifts the soft open-file limit to the hard one at start.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections.abc import Collection
from dataclasses import dataclass
from typing import ClassVar

import orjson
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from tabletop_server._metrics import connection_closed

__all__ = [
    "ConnectionLimits",
    "GuardedHttpProtocol",
    "auto_max_connections",
    "configure",
    "raise_open_file_limit",
]

logger = logging.getLogger("tabletop_server")


@dataclass(frozen=True, slots=True)
class ConnectionLimits:
    """The guard's limits (see the module's docstring)."""

    request_timeout: float = 15.0
    max_connections: int = 896


_limits = ConnectionLimits()


def auto_max_connections() -> int:
    """The cap from the soft open-file limit, less a reserve for the database, files and logs."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 100_000
    return max(16, soft - max(128, soft // 8))


def configure(request_timeout: float, max_connections: int) -> ConnectionLimits:
    """Set this process's limits (``max_connections`` 0: :func:`auto_max_connections`)."""
    global _limits  # one guard per process, read by every connection
    _limits = ConnectionLimits(request_timeout, max_connections or auto_max_connections())
    return _limits


def raise_open_file_limit() -> tuple[int, int]:
    """Lift the soft open-file limit to the hard limit where allowed; (before, after)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1_048_576)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            logger.warning("could not raise the open-file limit from %d", soft)
            return soft, soft
        return soft, target
    return soft, soft


_REFUSAL = orjson.dumps(
    {"code": "storage-unavailable", "message": "the server has too many open connections", "path": None}
)
_REFUSAL_RESPONSE = (
    b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n"
    b"connection: close\r\ncontent-length: %d\r\n\r\n%s" % (len(_REFUSAL), _REFUSAL)
)


class GuardedHttpProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a request deadline and a connection cap.

    A connection notes when it started waiting for a request; one sweep a process, every
    ``SWEEP_FRACTION`` of the timeout (at most a second), closes those that waited longer than the
    timeout. A request costs two attribute writes, not a timer of its own.
    """

    _waiting_since: float | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Count the connection; make room (or refuse) at the cap; start its deadline."""
        super().connection_made(transport)
        if len(self.connections) > _limits.max_connections and not self._evict_one():
            connection_closed("refused")
            transport.write(_REFUSAL_RESPONSE)
            transport.close()
            return
        self._waiting_since = self.loop.time()
        _Sweeper.ensure(self.loop, self.connections)

    def connection_lost(self, exc: Exception | None) -> None:
        """Drop the deadline with the connection."""
        self._waiting_since = None
        super().connection_lost(exc)

    def on_message_complete(self) -> None:
        """The request arrived whole: no deadline while it is answered."""
        self._waiting_since = None
        super().on_message_complete()

    def on_response_complete(self) -> None:
        """Answered: the next request has a deadline again (unless one waits in the pipeline)."""
        pipelined = bool(self.pipeline)
        super().on_response_complete()
        if not pipelined and not self.transport.is_closing():
            self._waiting_since = self.loop.time()

    def _expired(self, now: float) -> bool:
        since = self._waiting_since
        return since is not None and now - since >= _limits.request_timeout

    def _expire(self) -> None:
        self._waiting_since = None
        if not self.transport.is_closing():
            connection_closed("timeout")
            self.transport.close()

    def _evict_one(self) -> bool:
        """Close the connection that has waited longest for a request; False if none waits."""
        oldest: GuardedHttpProtocol | None = None
        for connection in self.connections:
            if connection is self or not isinstance(connection, GuardedHttpProtocol):
                continue
            since = connection._waiting_since
            if since is not None and (oldest is None or since < (oldest._waiting_since or 0.0)):
                oldest = connection
        if oldest is None:
            return False
        connection_closed("evicted")
        oldest._waiting_since = None
        oldest.connections.discard(oldest)
        oldest.transport.close()
        return True


SWEEP_FRACTION = 0.25
"""The sweep looks at the connections this often, as a fraction of the request timeout (so a
connection is closed between the timeout and a quarter more after it)."""


class _Sweeper:
    """The one periodic look of an event loop's connections (it stops when none is left)."""

    _running: ClassVar[dict[asyncio.AbstractEventLoop, _Sweeper]] = {}

    def __init__(self, loop: asyncio.AbstractEventLoop, connections: Collection[object]) -> None:
        self.loop = loop
        self.connections = connections

    @classmethod
    def ensure(cls, loop: asyncio.AbstractEventLoop, connections: Collection[object]) -> None:
        if loop not in cls._running:
            sweeper = cls._running[loop] = cls(loop, connections)
            sweeper._schedule()

    def _schedule(self) -> None:
        self.loop.call_later(min(1.0, _limits.request_timeout * SWEEP_FRACTION), self._sweep)

    def _sweep(self) -> None:
        now = self.loop.time()
        for connection in [c for c in self.connections if isinstance(c, GuardedHttpProtocol)]:
            if connection._expired(now):
                connection._expire()
        if self.connections:
            self._schedule()
        else:
            del self._running[self.loop]
