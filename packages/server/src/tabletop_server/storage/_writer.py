"""SQLite's one writer: one connection, and the writes that wait for it committed in groups.

SQLite takes one writer at a time. Instead of many threads queueing on that lock (each holding
it while the interpreter switches between them), the store's writes share one connection:

- On the event loop (the action route), a write joins a group: every write that reaches this
  point in the same turn of the loop is committed in one ``BEGIN IMMEDIATE`` transaction (each
  under its own savepoint, so one write's failure rolls back only that write), right after the
  loop ran the requests that produced them: a group commit, with no thread hand-off.
- From a thread (bots, the thread-pool routes), a write takes the connection's lock and commits
  on its own.

Each caller gets its own write's result, only after the commit.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from sqlalchemy import Connection, Engine

__all__ = ["SqliteWriter"]

T = TypeVar("T")

logger = logging.getLogger("tabletop_server.storage")

MAX_BATCH = 256
"""Most writes committed in one transaction."""

QUIET_SECONDS = 1.0
"""A log unchanged this long belongs to a quiet server: it may be emptied (see ``PINNED``)."""

PINNED = 2
"""A log this many times its limit is emptied even while writes go on (readers kept SQLite from
starting it over); below it, only once the server is quiet (see ``SqliteWriter._checkpoint``)."""


@dataclass(slots=True)
class _Job(Generic[T]):
    work: Callable[[Connection], T]
    future: asyncio.Future[T]


class SqliteWriter:
    """The write connection of one SQLite store.

    Args:
        engine: The writer engine (one pooled connection, ``BEGIN IMMEDIATE`` on begin).
        checkpoints: The engine the background checkpoints use (None: no checkpoint thread).
        every: Seconds between background checkpoints.
        wal_path: The write-ahead log file.
        wal_max_bytes: Past this size the log is checkpointed in full and truncated (0: never).
    """

    def __init__(
        self,
        engine: Engine,
        *,
        checkpoints: Engine | None = None,
        every: float = 1.0,
        wal_path: str | None = None,
        wal_max_bytes: int = 0,
    ) -> None:
        self._engine = engine
        self._wal_path = wal_path
        self._wal_max_bytes = wal_max_bytes
        self._lock = threading.Lock()
        self._connection: Connection | None = None
        self._pending: list[_Job[object]] = []
        self._flushing = False
        self._closed = False
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if checkpoints is not None and every > 0:
            self._checkpointer = threading.Thread(
                target=self._checkpoint,
                args=(checkpoints, every),
                name="tabletop-sqlite-checkpoint",
                daemon=True,
            )
            self._checkpointer.start()

    def run(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(connection)`` in its own write transaction (from any thread); its result."""
        with self._lock:
            connection = self._connect()
            try:
                with connection.begin():
                    return work(connection)
            except BaseException:
                self._check(connection)
                raise

    async def run_async(self, work: Callable[[Connection], T]) -> T:
        """Run ``work(connection)`` in the loop's next group commit; its result once committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._pending.append(_Job(work, future))  # type: ignore[arg-type]
        if not self._flushing:
            self._flushing = True
            loop.call_soon(self._flush)
        return await future

    def close(self) -> None:
        """Close the connection (after the write in progress, if any)."""
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(timeout=10)
        with self._lock:
            self._closed = True
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    def _checkpoint(self, engine: Engine, every: float) -> None:
        """Copy the write-ahead log into the database file now and then, off the write path
        (``PASSIVE``: it never waits for, nor blocks, the writer or the readers). SQLite starts
        the log over once a checkpoint copied all of it and no reader still reads it, and then
        truncates the file to ``wal_max_bytes`` (``journal_size_limit``). Under steady reads and
        writes that rarely happens, and a ``TRUNCATE`` checkpoint empties the log instead; it
        holds the writers while it runs (they wait for it), so it runs only right after a
        ``PASSIVE`` one copied the whole log (it then copies little more before the sync and
        the truncation; copying a second of frames stalled every write for up to 0.1 s), and
        only once the log is past ``PINNED`` times the limit, or past the limit with no write
        for ``QUIET_SECONDS``. Measured on tic-tac-toe at one client: a write waited about
        35 ms every second or two (the log grew some 30 MB a second), against up to 0.1 s
        every second before. It never waits for readers either (no busy handler): while a
        reader holds the log it gives up at once and is tried again, so writers never queue
        behind a long read (with a busy handler they did, and timed out as ``database is
        locked``)."""
        seen, moved = -1, time.monotonic()  # the log's frames at the last look, and when they last changed
        while not self._stop.wait(every):
            try:
                raw = engine.raw_connection()  # outside any transaction (none may be open)
                try:
                    driver = raw.driver_connection
                    (waited,) = driver.execute("PRAGMA busy_timeout").fetchone()  # type: ignore[union-attr]
                    driver.execute("PRAGMA busy_timeout=0")  # type: ignore[union-attr]
                    try:
                        busy, frames, copied = driver.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()  # type: ignore[union-attr]
                        if frames != seen:
                            seen, moved = frames, time.monotonic()
                        quiet = time.monotonic() - moved >= QUIET_SECONDS
                        size, limit = self.wal_bytes(), self._wal_max_bytes
                        if (
                            not busy
                            and frames == copied
                            and limit > 0
                            and size > (limit if quiet else PINNED * limit)
                        ):
                            driver.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # type: ignore[union-attr]
                    finally:
                        driver.execute(f"PRAGMA busy_timeout={int(waited)}")  # type: ignore[union-attr]
                finally:
                    raw.close()
            except Exception:  # the database is busy or gone: try again later
                logger.debug("SQLite checkpoint failed", exc_info=True)

    def wal_bytes(self) -> int:
        """The write-ahead log file's size now (0 if there is none)."""
        if self._wal_path is None:
            return 0
        try:
            return os.path.getsize(self._wal_path)
        except OSError:
            return 0

    def _connect(self) -> Connection:
        if self._closed:
            msg = "the store is closed"
            raise RuntimeError(msg)
        if self._connection is None or self._connection.invalidated or self._connection.closed:
            self._connection = self._engine.connect()
        return self._connection

    def _check(self, connection: Connection) -> None:
        """After a failure: make sure the connection holds no transaction, or drop it.

        A failed ``COMMIT`` (a full disk) can leave SQLite's transaction open, or rolled back
        behind SQLAlchemy's back; the next ``BEGIN IMMEDIATE`` would then fail forever. Roll
        back at the driver, and reconnect on the next write if even that fails.
        """
        if self._connection is not connection:
            return
        if not connection.invalidated and not connection.closed:
            try:
                transaction = connection.get_transaction()  # also one a failed COMMIT deactivated
                if transaction is not None:
                    transaction.rollback()
                raw = connection.connection.dbapi_connection
                if raw is not None and raw.in_transaction:
                    raw.execute("ROLLBACK")
                return
            except Exception:
                logger.warning("SQLite writer connection dropped after a failure", exc_info=True)
        try:
            connection.invalidate()
            connection.close()
        except Exception:
            logger.debug("closing the broken writer connection failed", exc_info=True)
        self._connection = None

    def _flush(self) -> None:
        self._flushing = False
        while self._pending:
            batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
            batch = [job for job in batch if not job.future.cancelled()]
            if not batch:
                continue
            with self._lock:
                try:
                    _commit(self._connect(), batch)
                except Exception as error:  # BEGIN or COMMIT failed: the whole group fails
                    for job in batch:
                        if not job.future.done():
                            job.future.set_exception(error)
                    if self._connection is not None:
                        self._check(self._connection)


def _commit(connection: Connection, batch: list[_Job[object]]) -> None:
    """Run a group in one transaction; a job's own error fails only that job."""
    if len(batch) == 1:  # no savepoint needed: the job's failure rolls the transaction back
        job = batch[0]
        transaction = connection.begin()
        try:
            value = job.work(connection)
        except Exception as failure:
            transaction.rollback()
            job.future.set_exception(failure)
            return
        transaction.commit()
        job.future.set_result(value)
        return
    results: list[tuple[_Job[object], object, BaseException | None]] = []
    with connection.begin():
        for job in batch:
            savepoint = connection.begin_nested()
            try:
                value = job.work(connection)
            except Exception as failure:
                savepoint.rollback()
                results.append((job, None, failure))
                continue
            savepoint.commit()
            results.append((job, value, None))
    for job, value, refused in results:  # committed: hand out the results
        if refused is not None:
            job.future.set_exception(refused)
        else:
            job.future.set_result(value)
