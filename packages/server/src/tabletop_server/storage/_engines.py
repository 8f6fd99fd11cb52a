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
    """

    pool_size: int = 10
    max_overflow: int = 10
    pool_timeout: float = 10.0
    connect_timeout: int = 5
    statement_timeout_ms: int = 30_000
    busy_timeout_ms: int = 5_000
    pool_pre_ping: bool = True
    sqlite_synchronous: Literal["NORMAL", "FULL"] = "NORMAL"


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
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: object) -> None:
        connection.exec_driver_sql(begin)  # type: ignore[attr-defined]

    return engine
