"""Start-up without the database, liveness and readiness, and the operator routes.

A worker starts whether or not the database answers. Its start-up work that needs the database
(migrations, checking the schema is current, resuming bot seats) runs in :class:`Warmup`: at
once, and while it fails, again every second in a background thread. Until it has succeeded the
``/api/matches`` routes answer ``503 storage-unavailable`` (with ``Retry-After``), and
``/readyz`` answers ``503 not-ready``; nothing makes the process exit.

- ``GET /livez``: 200 while the process serves (a load balancer restarts it otherwise).
- ``GET /readyz``: 200 when the start-up work is done, the database answers and its schema is at
  the newest migration; else 503 (a load balancer takes the worker out of rotation).
- ``GET /metrics``: Prometheus's text format (see ``_metrics``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

from tabletop_server._errors import ApiError
from tabletop_server._json import JsonResponse
from tabletop_server._metrics import CONTENT_TYPE_LATEST, scrape
from tabletop_server.storage import StorageError, Store, head_revision

__all__ = ["ReadinessGate", "Warmup", "install_health_routes"]

logger = logging.getLogger("tabletop_server")

LOG_EVERY_SECONDS = 30.0
"""While the database stays away, the warm-up says so at most this often."""

READY_CACHE_SECONDS = 1.0
"""How long a readiness answer is reused (a probe every 100 ms costs one query a second)."""


class Warmup:
    """The start-up work that needs the database, retried until it succeeds.

    Args:
        store: The store (opening it does not connect).
        steps: The work, in order (each may raise; all run again on the next attempt).
        retry_seconds: Seconds between attempts.
    """

    def __init__(
        self, store: Store, steps: list[Callable[[], object]], *, retry_seconds: float = 1.0
    ) -> None:
        self.store = store
        self.steps = steps
        self.retry_seconds = retry_seconds
        self.done = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._checked_at = 0.0
        self._checked: str | None = "starting"
        self._lock = threading.Lock()
        self._logged_at = -LOG_EVERY_SECONDS

    def attempt(self) -> bool:
        """Run the work once; True if all of it succeeded (then it never runs again)."""
        if self.done.is_set():
            return True
        try:
            for step in self.steps:
                step()
        except Exception as error:  # the database is down or not migrated yet: try again later
            if time.monotonic() - self._logged_at > LOG_EVERY_SECONDS:
                self._logged_at = time.monotonic()
                logger.warning("start-up work waits for the database: %s", str(error).splitlines()[0][:200])
            return False
        self.done.set()
        logger.info("start-up work done: serving")
        return True

    def start(self) -> None:
        """Retry in a background thread until the work succeeds or ``close`` is called."""
        if self.done.is_set() or self._thread is not None:
            return
        self._thread = threading.Thread(target=self._retry, name="tabletop-warmup", daemon=True)
        self._thread.start()

    def close(self) -> None:
        """Stop retrying."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _retry(self) -> None:
        while not self._stop.wait(self.retry_seconds):
            if self.attempt():
                return

    def not_ready(self) -> str | None:
        """Why the worker is not ready (None: it is). Reused for ``READY_CACHE_SECONDS``."""
        with self._lock:
            if time.monotonic() - self._checked_at < READY_CACHE_SECONDS:
                return self._checked
        reason: str | None
        if not self.done.is_set():
            reason = "start-up work waits for the database"
        else:
            try:
                revision = self.store.schema_revision()
            except StorageError as error:
                reason = error.message
            else:
                head = head_revision()
                reason = None if revision == head else f"the schema is at {revision}, not {head}"
        with self._lock:
            self._checked, self._checked_at = reason, time.monotonic()
        return reason


class ReadinessGate:
    """Answers ``503 storage-unavailable`` on ``/api/matches`` routes until the warm-up is done.

    Args:
        app: The rest of the app (the warm-up is ``app.state.warmup``, made at start-up).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.open = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.open and scope["type"] == "http" and scope["path"].startswith("/api/matches"):
            warmup = getattr(scope["app"].state, "warmup", None)
            if warmup is None or not warmup.done.is_set():
                error = ApiError("storage-unavailable", "the server is starting and waits for its database")
                response = JsonResponse(error.body(), status_code=error.status, headers={"Retry-After": "1"})
                await response(scope, receive, send)
                return
            self.open = True
        await self.app(scope, receive, send)


def install_health_routes(app: FastAPI, *, metrics: bool) -> None:
    """Add ``/livez``, ``/readyz`` and (if ``metrics``) ``/metrics`` (none in the OpenAPI document)."""

    @app.get("/livez", include_in_schema=False)
    async def livez() -> JsonResponse:
        return JsonResponse({"status": "alive"})

    @app.get("/readyz", include_in_schema=False)
    async def readyz(request: Request) -> JsonResponse:
        warmup = getattr(request.app.state, "warmup", None)
        reason = "the server is starting" if warmup is None else await run_in_threadpool(warmup.not_ready)
        if reason is None:
            return JsonResponse({"status": "ready"})
        error = ApiError("not-ready", reason)
        return JsonResponse(error.body(), status_code=error.status, headers={"Retry-After": "1"})

    if metrics:

        @app.get("/metrics", include_in_schema=False)
        async def prometheus() -> Response:
            return Response(await run_in_threadpool(scrape), media_type=CONTENT_TYPE_LATEST)
