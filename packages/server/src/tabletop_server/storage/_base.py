"""The store's connection handling: read and write transactions, database errors made typed."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Literal, Self, TypeVar

from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from tabletop_server._metrics import storage_failed
from tabletop_server.storage._engines import Engines, StoreOptions, open_engines
from tabletop_server.storage._errors import StorageFullError, StorageUnavailableError
from tabletop_server.storage._notify import notify_change
from tabletop_server.storage._url import normalize_url
from tabletop_server.storage._writer import SqliteWriter

__all__ = ["StoreBase"]

T = TypeVar("T")


class StoreBase:
    """Opens the engines and runs transactions; the public ``Store`` adds the operations."""

    def __init__(self, url: str | None = None, *, options: StoreOptions | None = None) -> None:
        self._url = normalize_url(url)
        self._options = options or StoreOptions()
        self._engines: Engines = open_engines(self._url, self._options)
        self._writer: SqliteWriter | None = None
        if self._engines.dialect == "sqlite":
            self._writer = SqliteWriter(
                self._engines.writer,
                checkpoints=self._engines.reader,
                every=self._options.sqlite_checkpoint_seconds,
                wal_path=f"{self._url.database}-wal",
                wal_max_bytes=self._options.sqlite_wal_max_bytes,
            )

    @property
    def url(self) -> str:
        """The database URL in use (password hidden)."""
        return self._url.render_as_string(hide_password=True)

    @property
    def dialect(self) -> Literal["sqlite", "postgresql"]:
        """Which database the store talks to."""
        return self._engines.dialect

    def close(self) -> None:
        """Commit queued writes and close every connection. The store must not be used afterwards."""
        if self._writer is not None:
            self._writer.close()
        self._engines.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def schema_revision(self) -> str | None:
        """The migration the database's schema is at (None: never migrated).

        Raises:
            StorageUnavailableError: The database cannot be reached.
        """
        with self._read() as connection:
            return MigrationContext.configure(connection).get_current_revision()

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        """A read transaction (a consistent snapshot; SQLite: deferred, never takes the write lock)."""
        with _unavailable(), self._engines.reader.begin() as connection:
            yield connection

    def _transact(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(connection)`` in a write transaction; its result once committed.

        SQLite: on the single writer connection, under its lock. PostgreSQL: a transaction on a
        pooled connection of the calling thread.
        """
        with _unavailable():
            if self._writer is not None:
                return self._writer.run(work)
            with self._engines.writer.begin() as connection:
                return work(connection)

    async def _transact_async(self, work: Callable[[Connection], T]) -> T:
        """``_transact`` for the event loop. SQLite: the write joins the loop's next group
        commit. PostgreSQL: a transaction in a thread (the loop does not wait for the network)."""
        with _unavailable():
            if self._writer is not None:
                return await self._writer.run_async(work)
            return await asyncio.get_running_loop().run_in_executor(None, self._transact_now, work)

    def _transact_now(self, work: Callable[[Connection], T]) -> T:
        with self._engines.writer.begin() as connection:
            return work(connection)

    def _notify(self, connection: Connection, match_id: str, head: int, *, bots: bool) -> None:
        """PostgreSQL: tell every worker about the change when this transaction commits."""
        if self.dialect == "postgresql":
            notify_change(connection, match_id, head, bot_may_move=bots)


def is_full(error: BaseException) -> bool:
    """True if ``error`` (a driver's, or SQLAlchemy's wrapping one) says the disk is full."""
    orig = error.orig if isinstance(error, DBAPIError) else error
    if isinstance(orig, sqlite3.Error):
        return getattr(orig, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "is full" in str(orig)
    return getattr(orig, "sqlstate", None) == "53100"  # PostgreSQL's disk_full


@contextmanager
def _unavailable() -> Iterator[None]:
    try:
        yield
    except PoolTimeout as error:
        storage_failed(StorageUnavailableError.code)
        raise StorageUnavailableError(f"no database connection free: {error}") from error
    except (OperationalError, InterfaceError, ProgrammingError) as error:  # down, or not migrated
        if is_full(error):
            storage_failed(StorageFullError.code)
            raise StorageFullError(f"the database's disk is full: {_reason(error)}") from error
        storage_failed(StorageUnavailableError.code)
        raise StorageUnavailableError(f"the database is unavailable: {_reason(error)}") from error
    except (sqlite3.OperationalError, sqlite3.InterfaceError, sqlite3.ProgrammingError) as error:
        # the same, from the statements the hot path sends to SQLite's driver directly
        if is_full(error):
            storage_failed(StorageFullError.code)
            raise StorageFullError(f"the database's disk is full: {error}") from error
        storage_failed(StorageUnavailableError.code)
        raise StorageUnavailableError(f"the database is unavailable: {error}") from error


def _reason(error: DBAPIError) -> str:
    text = str(error.orig) if error.orig is not None else type(error).__name__
    return text.strip().splitlines()[0] if text.strip() else type(error).__name__
