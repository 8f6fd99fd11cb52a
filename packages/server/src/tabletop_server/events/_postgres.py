"""The PostgreSQL ``LISTEN``/``NOTIFY`` hub: several workers on one database see each other's writes.

The store issues ``NOTIFY tabletop_matches, '<match id> <head> <bot>'`` inside every write
transaction of a match's log (``tabletop_server.storage._notify``), so PostgreSQL delivers it only once the
write committed, to every worker. Each worker keeps one listening connection in a background
thread; a notification wakes that worker's streams of the match, which then read what is new
from the action log. Notifications are not replayed after a connection loss, so after the
listener reconnects it wakes every stream (each re-reads from the log) and runs the
``on_reconnect`` callbacks (the app resumes bot seats there).

Bot seats: the worker that wrote a change plays the next bot move itself (the service's change
listeners). Every other worker that hears a change of a match with a bot to move remembers it,
and if nothing newer about that match arrives within ``takeover_delay`` seconds (the writer died,
say) runs the ``on_bot_turn`` callbacks; the bot's move is guarded by the store's compare-and-set
and an action id derived from the revision it read, so two workers never both apply it.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable

import psycopg
from sqlalchemy.engine import URL, make_url

from tabletop_server.events._hub import InProcessHub, MatchChange
from tabletop_server.storage import CHANNEL, normalize_url, parse_payload

__all__ = ["LISTENER_APPLICATION_NAME", "PostgresHub", "hub_for"]

LISTENER_APPLICATION_NAME = "tabletop-listen"
"""The ``application_name`` of every worker's listening connection: count the workers listening
with ``SELECT count(*) FROM pg_stat_activity WHERE application_name = 'tabletop-listen'``. (Its
``query`` column shows ``LISTEN`` only until the listener's next idle ``SELECT 1``, about a
second later, so it cannot tell a listener from another session.)"""

logger = logging.getLogger("tabletop_server.events")


def _conninfo(url: str | URL) -> str:
    parsed = make_url(url) if isinstance(url, str) else url
    return parsed.set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresHub(InProcessHub):
    """An ``EventHub`` for several workers on one PostgreSQL database.

    ``publish`` does nothing here: the store's ``NOTIFY`` reaches every worker (this one too)
    when the write commits, and the listener wakes the streams then. It only cancels this
    worker's pending bot takeover of the match (the local bot runner has the change).

    Args:
        url: The database URL (``postgresql://...``, any SQLAlchemy spelling).
        takeover_delay: Seconds before a worker plays a bot turn another worker announced.
        reconnect_delay: Seconds between attempts to re-open the listening connection.
    """

    def __init__(self, url: str | URL, *, takeover_delay: float = 1.0, reconnect_delay: float = 0.5) -> None:
        super().__init__()
        self._conninfo = _conninfo(url)
        self.takeover_delay = takeover_delay
        self.reconnect_delay = reconnect_delay
        self.on_bot_turn: list[Callable[[str], None]] = []
        """Called (from the listener thread) with a match whose bot turn nobody took up."""
        self.on_reconnect: list[Callable[[], None]] = []
        """Called (from the listener thread) after the listener reconnected."""
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._connected = threading.Event()
        self._pending: dict[str, tuple[float, int]] = {}
        self._mine: dict[str, int] = {}  # changes this worker wrote whose notification is due
        self._due: list[tuple[float, str]] = []
        self._pending_lock = threading.Lock()
        self._connection: psycopg.Connection[tuple[object, ...]] | None = None

    # -- EventHub -----------------------------------------------------------------------------

    def publish(self, change: MatchChange) -> None:
        """This worker wrote ``change``: its streams wake on the notification; drop any takeover."""
        with self._pending_lock:
            pending = self._pending.get(change.match_id)
            if pending is not None and pending[1] <= change.head:
                del self._pending[change.match_id]
            if len(self._mine) > 10_000:  # notifications lost in a disconnect never clear theirs
                self._mine.clear()
            self._mine[change.match_id] = change.head

    # -- lifecycle ----------------------------------------------------------------------------

    def start(self, timeout: float = 10.0) -> None:
        """Start the listener thread and wait until it listens (or ``timeout`` passed)."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="tabletop-listen", daemon=True)
        self._thread.start()
        self._connected.wait(timeout)

    def close(self) -> None:
        """Stop the listener thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    @property
    def listening(self) -> bool:
        """True while the listening connection is open."""
        return self._connected.is_set()

    # -- the listener -------------------------------------------------------------------------

    def _run(self) -> None:
        first = True
        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    self._conninfo,
                    autocommit=True,
                    connect_timeout=5,
                    application_name=LISTENER_APPLICATION_NAME,
                ) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self._connection = connection
                    self._connected.set()
                    if not first:
                        logger.info("listener reconnected; waking every stream")
                        self._resync()
                    first = False
                    self._listen(connection)
            except (psycopg.Error, OSError) as error:
                if self._stop.is_set():
                    break
                if self._connected.is_set():
                    logger.warning("listener lost the database: %s", str(error).splitlines()[0:1])
                self._connected.clear()
                self._connection = None
                self._stop.wait(self.reconnect_delay)
        self._connected.clear()
        self._connection = None

    def _listen(self, connection: psycopg.Connection[tuple[object, ...]]) -> None:
        while not self._stop.is_set():
            for notice in connection.notifies(timeout=self._wait_seconds(), stop_after=256):
                if notice.channel == CHANNEL:
                    self._received(notice.payload)
                if self._stop.is_set():
                    return
            self._fire_due()
            if connection.closed or connection.broken:
                raise psycopg.OperationalError("the listening connection closed")
            if not self._stop.is_set():
                connection.execute("SELECT 1")  # notices a dead server even when idle

    def _wait_seconds(self) -> float:
        with self._pending_lock:
            if not self._due:
                return 1.0
            return min(1.0, max(0.0, self._due[0][0] - time.monotonic()))

    def _received(self, payload: str) -> None:
        parsed = parse_payload(payload)
        if parsed is None:
            return
        match_id, head, bot_may_move = parsed
        change = MatchChange(match_id, head)
        with self._pending_lock:
            pending = self._pending.get(change.match_id)
            if pending is not None and pending[1] < change.head:
                del self._pending[change.match_id]
            ours = self._mine.get(change.match_id) == change.head
            if ours:
                del self._mine[change.match_id]
            if bot_may_move and self.on_bot_turn and not ours:
                due = time.monotonic() + self.takeover_delay
                self._pending[change.match_id] = (due, change.head)
                heapq.heappush(self._due, (due, change.match_id))
        InProcessHub.publish(self, change)
        self._fire_due()

    def _fire_due(self) -> None:
        now = time.monotonic()
        fire: list[str] = []
        with self._pending_lock:
            while self._due and self._due[0][0] <= now:
                due, match_id = heapq.heappop(self._due)
                pending = self._pending.get(match_id)
                if pending is not None and pending[0] == due:
                    del self._pending[match_id]
                    fire.append(match_id)
        for match_id in fire:
            for callback in self.on_bot_turn:
                self._safely(callback, match_id)

    def _resync(self) -> None:
        with self._lock:
            match_ids = list(self._subscribers)
        for match_id in match_ids:
            InProcessHub.publish(self, MatchChange(match_id, -1))
        for callback in self.on_reconnect:
            self._safely(callback)

    @staticmethod
    def _safely(callback: Callable[..., None], *args: str) -> None:
        try:
            callback(*args)
        except Exception:  # a callback must not stop the listener
            logger.exception("event hub callback failed")


def hub_for(url: str | None, *, takeover_delay: float = 1.0) -> InProcessHub:
    """The hub a database needs: a :class:`PostgresHub` for PostgreSQL (several workers may share
    it), else an :class:`InProcessHub` (SQLite: one process).

    Raises:
        ValueError: The URL is unusable.
    """
    parsed = normalize_url(url)
    if parsed.get_backend_name() == "postgresql":
        return PostgresHub(parsed, takeover_delay=takeover_delay)
    return InProcessHub()
