"""Turn notifications: the events an action causes, their signed bodies, and the delivery worker.

An action's write (or an undo's) queues its events in the outbox (``storage._outbox``) in its
transaction; the ``Courier`` of each worker process polls the outbox, leases due deliveries (a
compare-and-set: one attempt per lease, across workers), and POSTs them from a bounded pool of
threads with a timeout, never on a request's path. A failed attempt is retried with exponential
backoff; after ``webhook_max_attempts`` the delivery is ``failed`` (listed by ``GET
.../webhook/deliveries``). A worker killed mid-delivery leaves its lease to run out: the event is
sent again with the same id (at least once; receivers deduplicate by ``id``).

An event carries no game state: only its id and type, the match, the seat and the index, all of
which the seat may see.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import http.client
import logging
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

import orjson
from tabletop._machine import AnyState

from tabletop_server._match import LoadedMatch
from tabletop_server._settings import Settings
from tabletop_server.storage import DeliveryJob, DeliveryRow, OutboxEvent, StorageError, Store
from tabletop_server.storage._convert import now

__all__ = [
    "CLOCK_LOW",
    "EVENT_TYPES",
    "MATCH_FINISHED",
    "SIGNATURE_HEADER",
    "YOUR_TURN",
    "Courier",
    "event_body",
    "events_between",
    "queue_clock_low",
    "sign",
]

logger = logging.getLogger("tabletop_server")

YOUR_TURN = "your-turn"
"""A seat became active (it was not before the write: an action, or an undo)."""
MATCH_FINISHED = "match-finished"
"""The match got its result (sent to every seat)."""
CLOCK_LOW = "clock-low"
"""A seat's clock runs low (queued by the clocks with ``queue_clock_low``)."""
EVENT_TYPES = (YOUR_TURN, MATCH_FINISHED, CLOCK_LOW)

SIGNATURE_HEADER = "Tabletop-Signature"
"""``t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>." + body under the webhook's secret>``."""


def events_between(match: LoadedMatch, after: AnyState) -> tuple[OutboxEvent, ...]:
    """The notifications a write from ``match``'s state to ``after`` causes (no I/O)."""
    before = match.state
    if after.result is not None:
        if before.result is None:
            return (OutboxEvent(MATCH_FINISHED, tuple(seat.player_id for seat in match.seats)),)
        return ()
    was = before.active_player_ids
    became = tuple(p for p in after.active_player_ids if p not in was)
    return (OutboxEvent(YOUR_TURN, became),) if became else ()


def queue_clock_low(
    store: Store,
    match_id: str,
    index: int,
    revision: int,
    player_ids: Sequence[str],
    *,
    due_was: datetime,
    due_next: datetime | None,
) -> bool:
    """Queue a ``clock-low`` event for these seats (for the clock keeper), in one transaction
    with moving the clock's due time from its low point ``due_was`` to ``due_next``.

    ``index`` and ``revision``: the match's head and revision when it was observed (the event id
    is stable for them). Queued only if the clock is still at ``index`` and due at ``due_was``,
    so a second worker, or the same after a restart, does not queue it again.

    Returns:
        True if queued.

    Raises:
        StorageError: The database failed.
    """
    event = OutboxEvent(CLOCK_LOW, tuple(player_ids))
    return store.announce_low(match_id, index, due_was, due_next, event, revision)


def event_body(delivery: DeliveryRow) -> bytes:
    """The JSON body of a delivery (the same bytes at every attempt)."""
    return orjson.dumps(
        {
            "id": delivery.event_id,
            "type": delivery.type,
            "created_at": delivery.created_at.isoformat(),
            "match_id": delivery.match_id,
            "player_id": delivery.player_id,
            "index": delivery.index,
        },
        option=orjson.OPT_SORT_KEYS,
    )


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """The ``Tabletop-Signature`` header value of ``body`` sent at ``timestamp``.

    Example:
        >>> sign("s3cret", 1700000000, b"{}")[:16]
        't=1700000000,v1='
    """
    digest = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={timestamp},v1={digest}"


BACKOFF_CAP = 3600.0
"""The longest wait between two attempts of a delivery, in seconds."""


def backoff(settings: Settings, attempts: int) -> float:
    """Seconds before attempt ``attempts + 1``: doubling from ``webhook_retry_seconds``, capped.

    ``webhook_retry_seconds * 2 ** (attempts - 1)``, at most ``BACKOFF_CAP``; no jitter.
    """
    return float(min(settings.webhook_retry_seconds * 2 ** max(attempts - 1, 0), BACKOFF_CAP))


class Courier:
    """Delivers the outbox from a polling thread through a bounded pool of sender threads.

    Args:
        store: The store.
        settings: Timeouts, concurrency, retries.
        now: The worker's clock: which deliveries are due, their leases, and when a failed one
            is tried again (injectable for tests).
    """

    def __init__(self, store: Store, settings: Settings, *, now: Callable[[], datetime] = now) -> None:
        self.store = store
        self.settings = settings
        self.now = now
        self._stop = threading.Event()
        self._slots = threading.Semaphore(settings.webhook_concurrency)
        self._pool = ThreadPoolExecutor(settings.webhook_concurrency, thread_name_prefix="tabletop-webhook")
        self._thread = threading.Thread(target=self._loop, name="tabletop-outbox", daemon=True)

    def start(self) -> None:
        """Start polling."""
        self._thread.start()

    def close(self) -> None:
        """Stop polling and wait for the attempts in flight (each bounded by the timeout)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)
        self._pool.shutdown(wait=True, cancel_futures=True)

    def run_once(self) -> int:
        """Start an attempt for each due delivery a free sender can take; how many it started."""
        free = self.settings.webhook_concurrency
        started = 0
        lease = timedelta(seconds=self.settings.webhook_timeout * 2 + 5)
        for webhook_id, event in self.store.due_deliveries(limit=free * 2, at=self.now()):
            if not self._slots.acquire(blocking=False):
                break
            try:
                job = self.store.claim_delivery(webhook_id, event, lease, at=self.now())
            except BaseException:
                self._slots.release()
                raise
            if job is None:
                self._slots.release()
                continue
            self._pool.submit(self._attempt, job)
            started += 1
        return started

    def _loop(self) -> None:
        while not self._stop.wait(self.settings.webhook_poll_seconds):
            try:
                self.run_once()
            except StorageError as error:
                logger.warning(
                    "webhook outbox: the database failed (next poll tries again): %s", error.message
                )
            except Exception:  # never take the worker down
                logger.exception("webhook outbox failed")

    def _attempt(self, job: DeliveryJob) -> None:
        try:
            try:
                error = self._send(job)
            except Exception as unexpected:  # still an attempt: counted, so retries stay bounded
                logger.exception("webhook delivery failed")
                error = f"{type(unexpected).__name__}: {unexpected}"[:500]
            delivery = job.delivery
            retry_at = None
            if error is not None and delivery.attempts < self.settings.webhook_max_attempts:
                retry_at = self.now() + timedelta(seconds=backoff(self.settings, delivery.attempts))
            self.store.finish_delivery(delivery.webhook_id, delivery.event_id, error=error, retry_at=retry_at)
        except StorageError as error:  # the lease runs out: another poll retries it
            logger.warning("webhook outbox: could not record an attempt: %s", error.message)
        except Exception:
            logger.exception("webhook delivery failed")
        finally:
            self._slots.release()

    def _send(self, job: DeliveryJob) -> str | None:
        """POST the event; None on a 2xx answer, else what went wrong."""
        body = event_body(job.delivery)
        request = urllib.request.Request(
            job.url,
            data=body,
            method="POST",
            headers={
                "Content-Type": "application/json",
                "User-Agent": "tabletop-webhooks",
                "Tabletop-Event-Id": job.delivery.event_id,
                "Tabletop-Event-Type": job.delivery.type,
                SIGNATURE_HEADER: sign(job.secret, int(time.time()), body),
            },
        )
        timeout = self.settings.webhook_timeout
        deadline = _Deadline(timeout)
        opener = urllib.request.build_opener(_HttpHandler(deadline), _HttpsHandler(deadline))
        try:
            with opener.open(request, timeout=timeout) as answer:
                status = int(answer.status)
        except urllib.error.HTTPError as error:
            status = error.code
        except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError) as error:
            if deadline.expired:
                return _late(timeout)
            return f"{type(error).__name__}: {error}"[:500]
        finally:
            deadline.close()
        if deadline.expired:  # what was read before the sockets were shut down may look whole
            return _late(timeout)
        return None if 200 <= status < 300 else f"HTTP {status}"


def _late(timeout: float) -> str:
    return f"TimeoutError: no whole answer within {timeout:g} s"


class _Deadline:
    """Shuts an attempt's connections down once its time is up.

    The socket timeout bounds each read, not the answer: a receiver sending a byte now and then
    would keep its sender for as long as it liked (and past the lease, the event would be sent
    again while the first attempt still waits). Shutting the sockets down ends any read.
    """

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.expired = False
        self._closed = False
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True
        self._timer.start()

    def connect(self, address: tuple[str, int], *_: object) -> socket.socket:
        """``socket.create_connection`` for ``http.client``, the new socket watched."""
        sock = socket.create_connection(address, self.seconds)
        watched = sock.dup()  # the same connection, still open after TLS takes ``sock`` over
        with self._lock:
            if not (self.expired or self._closed):
                self._sockets.append(watched)
                return sock
        watched.close()
        sock.close()
        raise TimeoutError("the attempt's time ran out while connecting")

    def _expire(self) -> None:
        with self._lock:
            if self._closed:
                return
            self.expired = True
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        """Stop the timer and let the watched sockets go."""
        self._timer.cancel()
        with self._lock:
            self._closed = True
            for sock in self._sockets:
                sock.close()
            self._sockets.clear()


class _Connection(http.client.HTTPConnection):
    def __init__(self, host: str, *, deadline: _Deadline, **options: Any) -> None:
        super().__init__(host, **options)
        self._create_connection = deadline.connect  # how ``connect`` opens its socket


class _TlsConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, *, deadline: _Deadline, **options: Any) -> None:
        super().__init__(host, **options)
        self._create_connection = deadline.connect


class _HttpHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def _connection(self, host: str, **options: Any) -> http.client.HTTPConnection:
        return _Connection(host, deadline=self._deadline, **options)

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connection, req)


class _HttpsHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: _Deadline) -> None:
        super().__init__()
        self._deadline = deadline

    def _connection(self, host: str, **options: Any) -> http.client.HTTPConnection:
        return _TlsConnection(host, deadline=self._deadline, **options)

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connection, req)
