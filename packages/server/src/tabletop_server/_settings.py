"""Server settings: command-line flags and ``TABLETOP_*`` environment variables."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["Settings", "default_ui_dir"]


def default_ui_dir() -> Path | None:
    """The built UI (``games-ui/app/dist``) of the workspace the server runs in, if it exists.

    Looked up from the working directory and from the package's own location (a workspace
    checkout), so ``tabletop serve`` at the root of a clone serves the UI ``make ui-build`` made.
    """
    here = Path(__file__).resolve()
    for root in (Path.cwd(), *here.parents):
        candidate = root / "games-ui" / "app" / "dist"
        if (candidate / "index.html").is_file():
            return candidate
    return None


class Settings(BaseSettings):
    """How the server runs. Every field reads ``TABLETOP_<NAME>`` from the environment.

    Example:
        >>> Settings(db="sqlite:///games.db", port=9000).port
        9000
    """

    model_config = SettingsConfigDict(env_prefix="TABLETOP_", extra="forbid")

    db: str | None = None
    """Database URL: ``sqlite:///FILE`` or ``postgresql://user@host:port/name``. None: the embedded
    SQLite file ``$TABLETOP_DATA_DIR/tabletop.sqlite3`` (default ``./.tabletop/tabletop.sqlite3``)."""
    host: str = "127.0.0.1"
    """Interface to listen on."""
    port: int = Field(default=8000, ge=0, le=65535)
    """Port to listen on (0: any free port)."""
    ui_dir: Path | None = Field(default_factory=default_ui_dir)
    """Directory of the built UI served at ``/`` (index.html for unknown non-API paths); None
    serves the API only."""
    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    """Largest request body accepted; longer ones are ``413 payload-too-large`` before parsing."""
    stream_token_ttl: float = Field(default=60.0, gt=0)
    """Seconds a stream token stays valid (it is also single-use)."""
    keepalive_seconds: float = Field(default=15.0, gt=0)
    """Seconds between ``: keep-alive`` comments on an idle event stream."""
    stream_buffer_frames: int = Field(default=16, ge=1)
    """Events (and keep-alives) an event stream may hold for a client that is slow to read."""
    stream_drop_seconds: float = Field(default=10.0, gt=0)
    """Seconds a stream's buffer may stay full before the client is dropped (it reconnects with
    ``Last-Event-ID`` and loses nothing); a client that does not read cannot hold anything up."""
    bot_delay: float = Field(default=0.0, ge=0)
    """Seconds a bot waits before playing (0 in tests; a little makes play watchable)."""
    bot_decision_seconds: float = Field(default=1.0, gt=0, le=600)
    """Wall-clock seconds one search bot (MCTS) decision may take; it then plays the best move it
    found so far. Bounds what one match's bots cost, whatever iterations its creator asked for."""
    bot_max_iterations: int = Field(default=2_000, ge=1)
    """The most MCTS iterations of one decision; a seat asking for more gets this many."""
    bot_processes: int = Field(default=1, ge=0, le=64)
    """Bot processes searching at once, per server worker, at a lower scheduling priority than
    the server (0: search in the server's own process, whose request latency then depends on bot
    load). Decisions of all matches take turns: one decision per match, then the next match."""
    bot_queue_size: int = Field(default=256, ge=1)
    """Matches that may wait for a bot decision at once (per worker); while it is full, creating or
    forking a match with bot seats is refused with ``503 bots-busy``."""
    access_log: bool = False
    """Log one line per request (uvicorn's access log; off by default: at thousands of requests
    a second the logging costs more than the request)."""
    gc_threshold: int = Field(default=50_000, ge=0)
    """The collector's generation-0 threshold while serving (Python's default is 700; 0 keeps
    Python's settings). Each worker caches thousands of hydrated matches, and with the default a
    full collection walks them all every few seconds under load: a pause of ~80 ms that every
    in-flight request waits out (the p99 at 50 concurrent matches). The objects made at start-up
    are frozen out of collection, too."""
    migrate: bool = True
    """Apply the database migrations on start."""
    workers: int = Field(default=1, ge=1, le=64)
    """Worker processes of ``tabletop serve`` (more than one needs PostgreSQL)."""
    db_pool_size: int = Field(default=10, ge=1)
    """Database connections each worker keeps open (PostgreSQL; SQLite: readers)."""
    db_max_overflow: int = Field(default=10, ge=0)
    """Extra connections a worker may open under load (PostgreSQL needs ``max_connections`` ≥
    workers × (pool size + overflow + 1 listener))."""
    db_statement_timeout: float = Field(default=30.0, gt=0)
    """PostgreSQL: seconds one statement may run before it is cancelled (the request then gets
    ``503 storage-unavailable``; a new event stream an ``end`` event, its token unspent)."""
    db_pool_timeout: float = Field(default=10.0, gt=0)
    """Seconds a request waits for a free connection before ``503 storage-unavailable``."""
    match_cache_size: int = Field(default=4096, ge=0)
    """Hydrated matches each worker keeps between requests (0: none). A cache entry only saves
    re-reading a match: every write is still a compare-and-set on the stored revision, so a
    stale entry costs a retry, never a wrong answer."""
    db_synchronous_commit: Literal["on", "off", "local", "remote_write", "remote_apply"] | None = None
    """PostgreSQL's ``synchronous_commit`` for the server's sessions (None: the database's own
    setting). ``off`` makes commits much cheaper, and a database crash may then lose the last
    acknowledged actions; leave it unset unless that trade is yours to make."""
    clock_poll_seconds: float = Field(default=0.5, gt=0, le=60)
    """Seconds between a worker's looks for clocks whose time ran out (and at start, at once)."""
    clock_low_fraction: float = Field(default=0.2, ge=0, lt=1)
    """A seat's clock runs low (a ``clock-low`` webhook event, once per turn) when the time left for
    its decision falls below this fraction of a full allowance: a per-turn control's seconds, a
    correspondence control's days, a chess clock's main time (0: never)."""
    bot_takeover_seconds: float = Field(default=1.0, gt=0)
    """PostgreSQL: seconds before a worker plays a bot turn that another worker announced and
    nobody played (the announcing worker died)."""
    rate_limit_create: int = Field(default=60, ge=0)
    """Match creations (and forks) one client may make per minute: that many at once, refilled
    evenly; above it ``429 rate-limited`` with ``Retry-After`` (0: no limit). Per worker."""
    rate_limit_claim: int = Field(default=120, ge=0)
    """Seat claims one client may make per minute (0: no limit)."""
    rate_limit_stream_token: int = Field(default=240, ge=0)
    """Stream tokens one client may mint per minute (0: no limit)."""
    rate_limit_stream: int = Field(default=120, ge=0)
    """Event streams one client may open per minute (0: no limit)."""
    max_streams_per_client: int = Field(default=20, ge=0)
    """Event streams one client may hold open at once, per worker (0: no cap)."""
    request_timeout: float = Field(default=15.0, gt=0)
    """Seconds a connection has to send a complete request (headers and body) after it opens or
    after its last response; a connection that does not is closed (half-sent requests, silent
    sockets). ``tabletop serve`` only."""
    max_connections: int = Field(default=0, ge=0)
    """Open connections a worker accepts (0: from the open-file limit, minus a reserve for the
    database and files). At the cap, the connection idle the longest (no request in progress)
    is closed to make room; if none is idle, the new one gets ``503`` and is closed.
    ``tabletop serve`` only."""
    maintenance_seconds: float = Field(default=60.0, gt=0)
    """Seconds between maintenance runs: purging expired stream tokens, the retention below,
    and (SQLite) truncating the write-ahead log."""
    retention_unstarted_hours: float = Field(default=168.0, ge=0)
    """Delete a match in which no player ever acted once it is this old and untouched for as
    long (0: keep them)."""
    retention_abandoned_days: float = Field(default=0.0, ge=0)
    """Delete an unfinished match nobody touched for this many days (0: keep them; finished
    matches are always kept)."""
    sqlite_wal_max_bytes: int = Field(default=16 * 1024 * 1024, ge=0)
    """SQLite: the write-ahead log file's size limit. SQLite truncates the log to it whenever it
    starts the log over (steady reads rarely let it); a log past twice the limit, or past it
    after a second without writes, is checkpointed in full and emptied, which makes the writers
    wait for that moment; 0 never truncates."""
    sqlite_max_bytes: int = Field(default=0, ge=0)
    """SQLite: the largest the database file may grow (0: as large as the disk allows). At the cap
    writes answer ``503 storage-full`` as on a full disk, and reads go on."""
    dev: bool = False
    """Serve the developer panel's routes (``/api/dev/...``: the full state, every seat's view,
    time travel through the log, a random move for any seat). For a server on your own machine
    only: with it off (the default) they answer ``404 dev-mode-off``."""
    metrics: bool = True
    """Serve Prometheus metrics at ``/metrics`` (keep it off the public internet: see the deploy
    guide)."""
    webhook_timeout: float = Field(default=5.0, gt=0, le=60)
    """Seconds a webhook receiver has to answer one delivery, the whole answer however slowly it
    comes (then the attempt failed)."""
    webhook_concurrency: int = Field(default=8, ge=1, le=256)
    """Deliveries a worker sends at once (a slow receiver holds at most one of them)."""
    webhook_max_attempts: int = Field(default=8, ge=1, le=100)
    """Attempts of one delivery before it is marked ``failed``."""
    webhook_retry_seconds: float = Field(default=2.0, gt=0)
    """Seconds before the first retry of a failed delivery; each later retry waits twice as long
    (at most an hour)."""
    webhook_poll_seconds: float = Field(default=0.5, gt=0)
    """Seconds between a worker's looks at the webhook outbox for due deliveries."""
    webhook_keep_days: float = Field(default=7.0, gt=0)
    """Days a delivered or failed webhook delivery stays listed before maintenance deletes it."""
