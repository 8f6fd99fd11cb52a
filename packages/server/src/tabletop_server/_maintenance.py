"""Maintenance in the background: spent stream tokens purged, the retention settings applied, and
webhook deliveries older than ``webhook_keep_days`` (delivered or failed) deleted.

Every ``maintenance_seconds`` each worker deletes used and expired stream tokens, matches never
started and (if set) abandoned matches. Several workers doing the same is harmless: the deletes
are idempotent and batched. (SQLite's write-ahead log is truncated by the store's own
checkpoint thread, see ``sqlite_wal_max_bytes``.)
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from tabletop_server._settings import Settings
from tabletop_server.storage import StorageError, Store
from tabletop_server.storage._convert import now

__all__ = ["Maintenance"]

logger = logging.getLogger("tabletop_server")


class Maintenance:
    """A background thread running :meth:`run_once` every ``settings.maintenance_seconds``.

    Args:
        store: The store.
        settings: The retention settings and the interval.
    """

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="tabletop-maintenance", daemon=True)

    def start(self) -> None:
        """Start the thread."""
        self._thread.start()

    def close(self) -> None:
        """Stop the thread (after the run in progress)."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=30)

    def run_once(self) -> tuple[int, int]:
        """Purge now; returns (stream tokens deleted, matches deleted).

        Raises:
            StorageError: The database failed (the next run tries again).
        """
        tokens = self.store.purge_stream_tokens()
        settings = self.settings
        stamp = now()
        unstarted = abandoned = None
        if settings.retention_unstarted_hours > 0:
            unstarted = stamp - timedelta(hours=settings.retention_unstarted_hours)
        if settings.retention_abandoned_days > 0:
            abandoned = stamp - timedelta(days=settings.retention_abandoned_days)
        matches = self.store.purge_matches(unstarted_before=unstarted, abandoned_before=abandoned)
        self.store.purge_deliveries(stamp - timedelta(days=settings.webhook_keep_days))
        if tokens or matches:
            logger.info("maintenance: %d stream tokens and %d matches deleted", tokens, matches)
        return tokens, matches

    def _loop(self) -> None:
        while not self._stop.wait(self.settings.maintenance_seconds):
            try:
                self.run_once()
            except StorageError as error:
                logger.warning("maintenance failed (next run tries again): %s", error.message)
            except Exception:  # never take the worker down
                logger.exception("maintenance failed")
