"""A match's clock as a pure value: every transition takes the time it happened at as an argument.

Nothing here reads a clock: the host passes the time it observed (milliseconds since the epoch),
so the same recorded times give the same clock, on any machine, in any replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence, Set

from pydantic import Field

from tabletop._model import Model, built
from tabletop.clocks._control import DAY_MS, ChessClock, Correspondence, NoClock, PerTurn, TimeControl

__all__ = ["ClockState", "SeatClock", "advance_clock", "due_of", "next_due", "remaining_of", "start_clock"]


class SeatClock(Model):
    """One seat's clock."""

    bank_ms: int | None = None
    """A chess clock's time left, in milliseconds, as of ``since_ms`` (None: no bank)."""
    since_ms: int | None = None
    """When the seat's current decision started (None: not to act)."""
    timeouts: int = Field(default=0, ge=0)
    """Consecutive timeouts (reset when the seat acts itself)."""
    waiting: bool = False
    """True until a player first takes the seat: its clock does not run before (see
    :func:`take_seats`). A seat freed later keeps running: leaving does not stop a clock."""


class ClockState(Model):
    """Every seat's clock."""

    seats: dict[str, SeatClock]
    """The seats' clocks by player id."""


def _clock(seats: dict[str, SeatClock]) -> ClockState:
    """The clock of seats this module just built (validated as they were made, owned by nobody
    else): not copied again, as ``ClockState(seats=...)`` would."""
    return built(ClockState, {"seats": seats}, {"seats"})


def _seat(
    bank_ms: int | None, since_ms: int | None, timeouts: int, waiting: bool, fields: Set[str]
) -> SeatClock:
    """A seat's clock from values of the right types (``timeouts`` >= 0), without validating them
    again: what ``SeatClock(**values)`` gives (``fields``: the ones it would be given)."""
    values: dict[str, object] = {
        "bank_ms": bank_ms,
        "since_ms": since_ms,
        "timeouts": timeouts,
        "waiting": waiting,
    }
    return built(SeatClock, values, set(fields))


_STARTED = frozenset({"bank_ms", "since_ms", "waiting"})
_TAKEN = frozenset({"bank_ms", "since_ms", "timeouts"})
_ADVANCED = frozenset({"bank_ms", "since_ms", "timeouts", "waiting"})
"""The fields each transition gives a seat's clock explicitly (its ``model_fields_set``)."""


def start_clock(
    control: TimeControl,
    player_ids: Sequence[str],
    active: Iterable[str],
    now_ms: int,
    *,
    waiting: Iterable[str] = (),
) -> ClockState:
    """The clock of a match that starts at ``now_ms`` with ``active`` seats to act.

    Args:
        control: The match's time control.
        player_ids: Every seat.
        active: The seats to act first.
        now_ms: When the match starts.
        waiting: Seats no player has taken yet: their clocks start when one does (``take_seats``).
    """
    bank = round(control.main_seconds * 1000) if isinstance(control, ChessClock) else None
    waits = set(waiting)
    acting = set(active) - waits
    return _clock(
        {
            player_id: _seat(bank, now_ms if player_id in acting else None, 0, player_id in waits, _STARTED)
            for player_id in player_ids
        }
    )


def take_seats(clock: ClockState, taken: Iterable[str], *, now_ms: int, active: Iterable[str]) -> ClockState:
    """The clock after players first took the ``taken`` seats at ``now_ms``: each stops waiting,
    and its clock starts now if it is to act. Other seats are unchanged."""
    took, acting = set(taken), set(active)
    seats = dict(clock.seats)
    for player_id in took:
        seat = seats.get(player_id)
        if seat is None or not seat.waiting:
            continue
        since = now_ms if player_id in acting and seat.since_ms is None else seat.since_ms
        seats[player_id] = _seat(seat.bank_ms, since, seat.timeouts, False, _TAKEN)
    return _clock(seats)


def _spent(control: TimeControl, seat: SeatClock, now_ms: int) -> int | None:
    """A chess bank after charging the decision under way up to ``now_ms`` (floored at 0)."""
    if seat.bank_ms is None or seat.since_ms is None:
        return seat.bank_ms
    return max(0, seat.bank_ms - max(0, now_ms - seat.since_ms))


def advance_clock(
    control: TimeControl,
    clock: ClockState,
    *,
    now_ms: int,
    acted: Iterable[str] = (),
    timed_out: Iterable[str] = (),
    active: Iterable[str],
) -> ClockState:
    """The clock after a write observed at ``now_ms``.

    Args:
        control: The match's time control.
        clock: The clock before the write.
        now_ms: When the host recorded the write.
        acted: Seats that made a decision themselves in it (their timeouts reset; a chess bank
            is charged and gets its increment).
        timed_out: Seats whose time ran out and were played for (their timeouts count up).
        active: The seats to act after the write (a seat still waiting for its player does
            not start).
    """
    acted_set, timed_set, acting = set(acted), set(timed_out), set(active)
    increment = round(control.increment_seconds * 1000) if isinstance(control, ChessClock) else 0
    seats: dict[str, SeatClock] = {}
    for player_id, seat in clock.seats.items():
        decided = player_id in acted_set or player_id in timed_set
        bank = seat.bank_ms
        since = seat.since_ms
        timeouts = seat.timeouts
        if decided or (since is not None and player_id not in acting):
            bank = _spent(control, seat, now_ms)  # the decision under way ends now
            since = None
        if decided and bank is not None:
            bank += increment
        if player_id in timed_set:
            timeouts += 1
        elif player_id in acted_set:
            timeouts = 0
        if player_id in acting and since is None and not seat.waiting:
            since = now_ms
        seats[player_id] = _seat(bank, since, timeouts, seat.waiting, _ADVANCED)
    return _clock(seats)


def due_of(control: TimeControl, seat: SeatClock) -> int | None:
    """When the seat's time runs out (ms since the epoch), or None (not to act, or no clock)."""
    if seat.since_ms is None or isinstance(control, NoClock):
        return None
    if isinstance(control, PerTurn):
        return seat.since_ms + round(control.seconds * 1000)
    if isinstance(control, Correspondence):
        return seat.since_ms + round(control.days * DAY_MS)
    assert seat.bank_ms is not None
    return seat.since_ms + seat.bank_ms


def next_due(control: TimeControl, clock: ClockState) -> tuple[int, str] | None:
    """The earliest ``(due time, player id)`` of the match, or None."""
    found = [
        (due, player_id)
        for player_id, seat in clock.seats.items()
        if (due := due_of(control, seat)) is not None
    ]
    return min(found) if found else None


def remaining_of(control: TimeControl, seat: SeatClock, now_ms: int) -> int | None:
    """The seat's time left at ``now_ms`` in milliseconds (0 once it ran out): a chess seat's bank
    even when not to act; a per-turn seat's time for the decision under way; else None."""
    due = due_of(control, seat)
    if due is not None:
        return max(0, due - now_ms)
    return seat.bank_ms
