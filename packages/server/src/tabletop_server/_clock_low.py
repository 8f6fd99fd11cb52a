"""When a seat's clock runs low: the ``clock-low`` point of each turn, and the clock's next due time.

A seat's clock is low when the time left for its current decision falls below the server's
``clock_low_fraction`` of a full allowance: a per-turn control's seconds, a correspondence
control's days, a chess clock's main time. The low point of a turn is a due time of the match's
``clocks`` row like its expiry, so the keeper that leases due clocks picks it up (once: see
``Store.announce_low``). A seat that starts its turn already below the threshold (a chess bank
run down) is not told again; a seat that acts before its low point is not told at all.
"""

from __future__ import annotations

from tabletop.clocks import ChessClock, ClockState, Correspondence, PerTurn, SeatClock, TimeControl, due_of

__all__ = ["low_of", "low_seats", "next_point"]

DAY_MS = 86_400_000


def _allowance_ms(control: TimeControl) -> int | None:
    if isinstance(control, PerTurn):
        return round(control.seconds * 1000)
    if isinstance(control, Correspondence):
        return round(control.days * DAY_MS)
    if isinstance(control, ChessClock):
        return round(control.main_seconds * 1000)
    return None


def low_of(control: TimeControl, seat: SeatClock, fraction: float) -> int | None:
    """When the seat's clock runs low in its current decision (ms since the epoch), or None (not
    to act, no clock, ``fraction`` 0, or low already when the decision started)."""
    due = due_of(control, seat)
    allowance = _allowance_ms(control)
    if due is None or allowance is None or fraction <= 0 or seat.since_ms is None:
        return None
    low = due - round(fraction * allowance)
    return low if low > seat.since_ms else None


def next_point(control: TimeControl, clock: ClockState, fraction: float, after_ms: int) -> int | None:
    """The clock's next due time: the earliest expiry, or low point later than ``after_ms``."""
    allowance = _allowance_ms(control) if fraction > 0 else None  # (None: no low points)
    margin = 0 if allowance is None else round(fraction * allowance)
    point: int | None = None
    for seat in clock.seats.values():
        due = due_of(control, seat)
        if due is None:
            continue
        if point is None or due < point:
            point = due
        low = due - margin  # (``low_of``: a seat with a due time has a ``since_ms``)
        if allowance is not None and low > after_ms and low < point and low > (seat.since_ms or 0):
            point = low
    return point


def low_seats(
    control: TimeControl, clock: ClockState, fraction: float, floor_ms: int, now_ms: int
) -> list[str]:
    """The seats whose low point is in ``[floor_ms, now_ms]`` and whose time has not run out."""
    found = []
    for player_id, seat in clock.seats.items():
        low = low_of(control, seat, fraction)
        due = due_of(control, seat)
        if low is not None and due is not None and floor_ms <= low <= now_ms < due:
            found.append(player_id)
    return found
