"""The event hub: who is told that a match changed. Streams then read what changed from storage.

A notification carries only the match id and its head: a stream fills every gap from the action
log, so a hub may coalesce or even drop notifications without a client losing an event (the
PostgreSQL ``LISTEN``/``NOTIFY`` hub of a multi-worker deployment relies on this too).
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from dataclasses import dataclass
from typing import Protocol

__all__ = ["EventHub", "InProcessHub", "MatchChange", "Subscription"]


@dataclass(frozen=True, slots=True)
class MatchChange:
    """A match's log changed.

    Attributes:
        match_id: The match.
        head: The number of actions recorded after the change.
    """

    match_id: str
    head: int


class Subscription(Protocol):
    """One stream's interest in one match."""

    changed_at: float
    """The event loop's time (``loop.time()``) of the last notification (0: none yet)."""

    async def wait(self, timeout: float) -> bool:
        """Wait until the match changed since the last call (True) or ``timeout`` passed (False)."""
        ...

    def close(self) -> None:
        """Stop receiving notifications."""
        ...


class EventHub(Protocol):
    """Tells subscribers that a match changed. Implementations: :class:`InProcessHub` (one
    process); a PostgreSQL ``LISTEN``/``NOTIFY`` hub for several workers fits the same shape."""

    def publish(self, change: MatchChange) -> None:
        """Announce a change (callable from any thread, after the write committed)."""
        ...

    def subscribe(self, match_id: str) -> Subscription:
        """Start listening for changes of ``match_id`` (from the event loop's thread)."""
        ...


class _Subscription:
    def __init__(self, hub: InProcessHub, match_id: str) -> None:
        self._hub = hub
        self.match_id = match_id
        self.event = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        self.changed_at = 0.0

    def notify(self) -> None:
        self.changed_at = self.loop.time()
        self.event.set()

    async def wait(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            return False
        self.event.clear()
        return True

    def close(self) -> None:
        self._hub.unsubscribe(self)


class InProcessHub:
    """An :class:`EventHub` for one server process (SQLite, or a single PostgreSQL worker)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, set[_Subscription]] = defaultdict(set)

    def publish(self, change: MatchChange) -> None:
        """Wake every stream of the match (thread-safe)."""
        with self._lock:
            subscribers = list(self._subscribers.get(change.match_id, ()))
        for subscriber in subscribers:
            try:
                subscriber.loop.call_soon_threadsafe(subscriber.notify)
            except RuntimeError:  # its loop is closed: the server is shutting down
                continue

    def subscribe(self, match_id: str) -> Subscription:
        """Listen for changes of ``match_id``; call from the event loop."""
        subscription = _Subscription(self, match_id)
        with self._lock:
            self._subscribers[match_id].add(subscription)
        return subscription

    def unsubscribe(self, subscription: _Subscription) -> None:
        """Stop a subscription (idempotent)."""
        with self._lock:
            subscribers = self._subscribers.get(subscription.match_id)
            if subscribers is not None:
                subscribers.discard(subscription)
                if not subscribers:
                    del self._subscribers[subscription.match_id]

    def subscriber_count(self, match_id: str) -> int:
        """How many streams listen to ``match_id`` now."""
        with self._lock:
            return len(self._subscribers.get(match_id, ()))
