"""When a bot decision that failed is tried again.

A failed decision is never dropped: nothing else would wake its match (the human players wait
for the bot). After a database fault (``storage-unavailable``, ``storage-full``) it is tried
again for as long as the fault lasts, the pause doubling from ``RETRY_SECONDS`` up to
``RETRY_MAX_SECONDS``; after any other fault (a refused move, a bug in the game's bot)
``RETRY_FAULTS`` times, after which the match's bots wait for its next change.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

__all__ = ["RETRY_FAULTS", "RETRY_MAX_SECONDS", "RETRY_SECONDS", "TRANSIENT", "RetrySchedule"]

logger = logging.getLogger("tabletop_server.bots")

TRANSIENT = frozenset(("storage-unavailable", "storage-full"))
"""Failures that pass by themselves: the decision is tried again for as long as they last."""

RETRY_SECONDS = 0.25
"""The pause before a failed decision's first retry; it doubles with each failure in a row."""

RETRY_MAX_SECONDS = 30.0
"""The longest pause between retries."""

RETRY_FAULTS = 3
"""Retries after a failure that is not a database fault, before the bots wait for a change."""


class RetrySchedule:
    """The failures in a row of each match's bot decisions, and their pending retries.

    Args:
        poke: Queues a match's next decision (``BotRunner.poke``), called when a retry is due.
    """

    def __init__(self, poke: Callable[[str], None]) -> None:
        self._poke = poke
        self._lock = threading.Lock()
        self._failures: dict[str, int] = {}
        self._timers: dict[str, threading.Timer] = {}
        self._closed = False
        self.scheduled = 0
        """Retries scheduled so far (tests and metrics)."""

    def failed(self, match_id: str, code: str, message: str) -> None:
        """A decision of the match failed with ``code``: schedule its retry (or give up)."""
        with self._lock:
            if self._closed:
                return
            failures = self._failures.get(match_id, 0) + 1
            if code not in TRANSIENT and failures > RETRY_FAULTS:
                del self._failures[match_id]
                logger.error(
                    "bots of match %s wait for its next change: %d decisions in a row failed (%s: %s)",
                    match_id,
                    failures,
                    code,
                    message,
                )
                return
            self._failures[match_id] = failures
            pause = min(RETRY_MAX_SECONDS, RETRY_SECONDS * 2 ** (failures - 1))
            timer = threading.Timer(pause, self._due, args=(match_id,))
            timer.daemon = True
            earlier = self._timers.pop(match_id, None)
            self._timers[match_id] = timer
            self.scheduled += 1
        if earlier is not None:
            earlier.cancel()
        logger.warning("bot of match %s: %s (%s); trying again in %.2f s", match_id, message, code, pause)
        timer.start()

    def succeeded(self, match_id: str) -> None:
        """The match's decision went through, or it had none to make: no failures in a row."""
        with self._lock:
            self._failures.pop(match_id, None)

    def close(self) -> None:
        """Cancel every pending retry."""
        with self._lock:
            self._closed = True
            timers, self._timers = list(self._timers.values()), {}
        for timer in timers:
            timer.cancel()

    def _due(self, match_id: str) -> None:
        with self._lock:
            self._timers.pop(match_id, None)
            if self._closed:
                return
        self._poke(match_id)
