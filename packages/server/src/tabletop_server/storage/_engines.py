"""SQLAlchemy engines: SQLite readers plus one immediate-transaction writer, or a PostgreSQL pool."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL
from sqlalchemy.pool import ConnectionPoolEntry, QueuePool

__all__ = ["Engines", "StoreOptions", "open_engines"]


@dataclass(frozen=True, slots=True)
class StoreOptions:
    """Connection settings of a store.

    Attributes:
        pool_size: Connections kept open (PostgreSQL: shared by reads and writes; SQLite: readers).
        max_overflow: Extra connections opened under load beyond ``pool_size``.
        pool_timeout: Seconds a request waits for a free connection before failing.
        connect_timeout: Seconds to wait for PostgreSQL to accept a connection.
        statement_timeout_ms: PostgreSQL statement timeout (0: none).
        busy_timeout_ms: SQLite: how long a writer waits for another process's write lock.
        pool_pre_ping: PostgreSQL: test a pooled connection before each use (one extra round
            trip; without it the first request after a database restart fails with
            ``StorageUnavailableError`` and the pool then reconnects).
        sqlite_synchronous: SQLite's ``synchronous`` pragma. ``"NORMAL"`` (the default; in WAL mode
            a commit survives a process crash, the last commits may be lost on power loss) or
            ``"FULL"`` (an fsync per commit).
        sqlite_checkpoint_seconds: SQLite: how often a background thread copies the write-ahead
            log into the database file (a checkpoint, with its fsync), so that no commit waits for
            one; 0 leaves it to SQLite (the commit that fills 1000 pages of log checkpoints).
        sqlite_wal_max_bytes: SQLite: the write-ahead log's size limit. SQLite truncates the log
            to it at each reset (steady reads rarely let it reset); a log past twice it, or past
            it once the server is quiet, is checkpointed in full and emptied; 0: never.
        sqlite_max_bytes: SQLite: the largest the database file may grow (0: no cap); at the cap
            a write fails as on a full disk (``StorageFullError``).
        synchronous_commit: PostgreSQL's ``synchronous_commit`` for the store's sessions, or None
            for the server's setting. ``"off"`` answers before the commit's WAL is flushed: much
            faster commits, and a database crash may lose the last acknowledged actions (never
            corrupting a match). The operator's choice; never the default.
    """

    pool_size: int = 10
    max_overflow: int = 10
    pool_timeout: float = 10.0
    connect_timeout: int = 5
    statement_timeout_ms: int = 30_000
    busy_timeout_ms: int = 5_000
    pool_pre_ping: bool = True
    sqlite_synchronous: Literal["NORMAL", "FULL"] = "NORMAL"
    sqlite_checkpoint_seconds: float = 1.0
    sqlite_wal_max_bytes: int = 16 * 1024 * 1024
    sqlite_max_bytes: int = 0
    synchronous_commit: Literal["on", "off", "local", "remote_write", "remote_apply"] | None = None


@dataclass(frozen=True, slots=True)
class Engines:
    """The engine reads go through and the one writes go through (the same for PostgreSQL)."""

    reader: Engine
    writer: Engine
    dialect: Literal["sqlite", "postgresql"]

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.reader.dispose()
        if self.writer is not self.reader:
            self.writer.dispose()


def open_engines(url: URL, options: StoreOptions) -> Engines:
    """Create the engines for a normalised URL (see ``normalize_url``)."""
    if url.get_backend_name() == "sqlite":
        if url.database:
            Path(url.database).parent.mkdir(parents=True, exist_ok=True)
        reader = _sqlite_engine(url, options, writer=False)
        writer = _sqlite_engine(url, options, writer=True)
        return Engines(reader, writer, "sqlite")
    options_arg = f"-c statement_timeout={options.statement_timeout_ms}"
    if options.synchronous_commit is not None:
        options_arg += f" -c synchronous_commit={options.synchronous_commit}"
    engine = create_engine(
        url,
        pool_size=options.pool_size,
        max_overflow=options.max_overflow,
        pool_timeout=options.pool_timeout,
        pool_pre_ping=options.pool_pre_ping,
        pool_recycle=1800,
        connect_args={
            "connect_timeout": options.connect_timeout,
            "application_name": "tabletop",
            "options": options_arg,
        },
    )
    return Engines(engine, engine, "postgresql")


def _sqlite_engine(url: URL, options: StoreOptions, *, writer: bool) -> Engine:
    # One writer connection: threads queue on the pool (in Python, in order) instead of
    # spinning on SQLite's file lock; busy_timeout still covers other processes.
    engine = create_engine(
        url,
        poolclass=QueuePool,
        pool_size=1 if writer else options.pool_size,
        max_overflow=0 if writer else options.max_overflow,
        pool_timeout=options.pool_timeout if not writer else max(options.pool_timeout, 30.0),
        connect_args={"check_same_thread": False, "timeout": options.busy_timeout_ms / 1000},
    )
    begin = "BEGIN IMMEDIATE" if writer else "BEGIN"

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: object, _record: ConnectionPoolEntry) -> None:
        # pysqlite would emit its own deferred BEGIN (too late for a writer); take over.
        dbapi_connection.isolation_level = None  # type: ignore[attr-defined]
        cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(options.busy_timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={options.sqlite_synchronous}")
        if writer and options.sqlite_checkpoint_seconds > 0:  # the store's checkpointer does it
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        if options.sqlite_wal_max_bytes > 0:  # the log file shrinks back to this after a reset
            cursor.execute(f"PRAGMA journal_size_limit={int(options.sqlite_wal_max_bytes)}")
        if options.sqlite_max_bytes > 0:
            page_size = cursor.execute("PRAGMA page_size").fetchone()[0]
            cursor.execute(f"PRAGMA max_page_count={max(1, options.sqlite_max_bytes // page_size)}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: object) -> None:
        # Straight to the driver: this runs for every transaction.
        connection.connection.dbapi_connection.execute(begin)  # type: ignore[attr-defined]

    return engine
