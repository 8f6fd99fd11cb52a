"""The clocks one worker knows: each clocked match's settings and clock as last stored or computed,
brought up to the match's head from the recorded actions' times, and shown in views.

``ClockKeeper`` (``_clocks``) builds on it: the hooks on the action and claim paths, and the
thread that enforces deadlines.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime

from pydantic import JsonValue
from tabletop.clocks import ClockSettings, ClockState, take_seats

from tabletop_server._clock_low import next_point
from tabletop_server._clock_time import (
    KnownClock,
    active_seats,
    at_ms,
    caught_up,
    clock_json,
    shown_settings,
    state_text,
    taken_since,
    to_ms,
)
from tabletop_server._match import LoadedMatch
from tabletop_server._service import MatchService
from tabletop_server.events import MatchChange
from tabletop_server.storage import ClockRow

__all__ = ["KNOWN_LIMIT", "UNKNOWN", "ClockBook", "Now", "utc_now"]

KNOWN_LIMIT = 100_000
"""Matches whose clock (or lack of one) a worker remembers; beyond it, it starts over."""

Now = Callable[[], datetime]


def utc_now() -> datetime:
    """The time now (UTC)."""
    return datetime.now(UTC)


UNKNOWN = object()
"""Marker: the worker has not looked at the match yet."""


class ClockBook:
    """The clocks of one worker's matches, as it knows them.

    Args:
        service: The matches service.
        low_fraction: Where a seat's clock runs low (``_clock_low``; 0: never).
        now: The server's clock (injectable for tests).
    """

    def __init__(self, service: MatchService, *, low_fraction: float = 0.0, now: Now = utc_now) -> None:
        self.service = service
        self.low_fraction = low_fraction
        self.now = now
        self._known: dict[str, KnownClock | None] = {}
        """Clocked matches' settings and clocks (None: a match without a clock)."""
        self._lock = threading.Lock()

    def _due(self, settings: ClockSettings, clock: ClockState, after_ms: int) -> datetime | None:
        point = next_point(settings.control, clock, self.low_fraction, after_ms)
        return None if point is None else at_ms(point)

    def _settings(self, match_id: str) -> tuple[KnownClock | None, ClockRow | None]:
        with self._lock:
            if match_id in self._known and self._known[match_id] is None:
                return None, None
        row = self.service.store.get_clock(match_id)
        if row is None:
            self._remember(match_id, None)
            return None, None
        settings = ClockSettings.model_validate(row.settings)
        found = KnownClock(
            settings,
            ClockState.model_validate_json(row.state_json),
            row.head,
            shown_settings(settings.model_dump(mode="json")),
            self._away(match_id),
        )
        self._remember(match_id, found)
        return found, row

    def _away(self, match_id: str) -> frozenset[str]:
        return frozenset(stand_in.player_id for stand_in in self.service.store.stand_ins(match_id))

    def _remember(self, match_id: str, known: KnownClock | None) -> None:
        with self._lock:
            if len(self._known) >= KNOWN_LIMIT and match_id not in self._known:
                self._known.clear()
            self._known[match_id] = known

    def refresh(self, match_id: str) -> KnownClock | None:
        """Bring the stored clock up to the match's head (from the recorded actions' times)."""
        found = self._refresh(match_id)
        return None if found is None else found[0]

    def _refresh(self, match_id: str) -> tuple[KnownClock, datetime | None] | None:
        """``refresh``, and the clock's due time as now stored."""
        known, row = self._settings(match_id)
        if known is None or row is None:
            return None
        match = self.service.load(match_id)
        taken = taken_since(known.clock, match)
        if row.head == match.row.head and match.row.status == "in_progress" and not taken:
            known = replace(known, active=tuple(active_seats(match)))
            self._remember(match_id, known)
            return known, row.due_at  # (``_settings`` read the stand-ins again)
        clock = known.clock
        if row.head != match.row.head or match.row.status != "in_progress":
            clock = caught_up(self.service.store, match, known.settings.control, clock, known.head)
        active = active_seats(match)
        if taken:  # their clocks start when the keeper first sees them taken (or the last write)
            moment = max(to_ms(match.row.updated_at), to_ms(row.due_at or self.now()))
            clock = take_seats(clock, taken, now_ms=min(moment, to_ms(self.now())), active=active)
        updated = KnownClock(known.settings, clock, match.row.head, known.shown, known.away, tuple(active))
        due = None
        if match.row.status == "in_progress":
            due = self._due(known.settings, updated.clock, to_ms(match.row.updated_at))
        self.service.store.save_clock(match_id, state_text(updated.clock), updated.head, due)
        self._remember(match_id, updated)
        self.service.hub.publish(MatchChange(match_id, match.row.head))  # streams send the new clock
        return updated, due

    # -- views ----------------------------------------------------------------------------------------

    def view(self, match: LoadedMatch) -> JsonValue:
        """The ``ClockView`` JSON of a match (None without a clock): each seat's time left as of
        the server's clock, and the server's time."""
        match_id = match.row.id
        with self._lock:
            cached = self._known.get(match_id, UNKNOWN)
        if cached is None:
            return None
        known = cached if isinstance(cached, KnownClock) and cached.head == match.row.head else None
        if known is None or taken_since(known.clock, match):  # (another worker may have started it)
            known, _ = self._settings(match_id)
            if known is None:
                return None
        in_progress = match.row.status == "in_progress"
        return clock_json(
            known.settings.control, known.shown, known.clock, known.head, known.away, in_progress, self.now()
        )
