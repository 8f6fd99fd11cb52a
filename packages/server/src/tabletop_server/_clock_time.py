"""The clock keeper's time helpers: milliseconds, the seats to act, and a clock caught up from the log."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

import orjson
from pydantic import JsonValue
from tabletop import Game, GameConfig
from tabletop._machine import AnyState
from tabletop.clocks import ClockSettings, ClockState, TimeControl, advance_clock, due_of, remaining_of

from tabletop_server._match import LoadedMatch
from tabletop_server._registry import GameEntry
from tabletop_server.storage import ActionRow, Store

__all__ = [
    "TIMEOUT_PREFIX",
    "KnownClock",
    "ShownSettings",
    "active_in",
    "active_seats",
    "at_ms",
    "caught_up",
    "clock_json",
    "shown_settings",
    "state_text",
    "taken_since",
    "to_ms",
    "waiting_due",
]

TIMEOUT_PREFIX = "timeout-"
"""The action id prefix of a move the server played for a seat whose time ran out."""

ShownSettings = Mapping[str, JsonValue]
"""A clock's settings as its view shows them: the ``control`` and ``policy`` JSON."""


def shown_settings(settings: Mapping[str, JsonValue]) -> ShownSettings:
    """The part of a clock's settings JSON (``ClockSettings`` dumped) that a clock view shows."""
    return {"control": settings["control"], "policy": settings["policy"]}


@dataclass(frozen=True, slots=True)
class KnownClock:
    """A clocked match's settings and its clock as last stored or computed."""

    settings: ClockSettings
    clock: ClockState
    head: int
    shown: ShownSettings
    """The settings as every clock view shows them (dumped once, not per view)."""
    away: frozenset[str] = frozenset()
    """The seats bots stand in for, as last read."""
    active: tuple[str, ...] | None = None
    """The seats to act at ``head`` (None: not worked out, as for a clock read from the store)."""


def to_ms(moment: datetime) -> int:
    """Milliseconds since the epoch."""
    return round(moment.timestamp() * 1000)


def state_text(clock: ClockState) -> str:
    """The text a clock is stored as: ``clock.model_dump_json()`` at half the cost, by orjson from
    its seats' fields as pydantic holds them (in field order; the same bytes, tested). A claim's
    compare-and-set compares it with the stored text, so it never changes for a given clock."""
    try:
        return orjson.dumps({"seats": {pid: seat.__dict__ for pid, seat in clock.seats.items()}}).decode()
    except orjson.JSONEncodeError:  # pragma: no cover - (an integer beyond 64 bits)
        return clock.model_dump_json()


def at_ms(ms: int) -> datetime:
    """The moment ``ms`` milliseconds after the epoch (UTC)."""
    return datetime.fromtimestamp(ms / 1000, UTC)


def active_seats(match: LoadedMatch) -> list[str]:
    """The seats with a move to make now (a seat that acted in an open simultaneous group waits)."""
    return active_in(match.entry, match.game, match.state, match.row.status)


def active_in(entry: GameEntry, game: Game[GameConfig], state: AnyState, status: str) -> list[str]:
    """``active_seats`` of a state with this status (before it is written)."""
    if status != "in_progress":
        return []
    engine = entry.engine
    return [pid for pid in state.active_player_ids if engine.valid_action_types(state, pid, game)]


def taken_since(clock: ClockState, match: LoadedMatch) -> list[str]:
    """Seats the clock still waits for whose player has taken them since (or a bot, or a stand-in)."""
    for seat in clock.seats.values():
        if seat.waiting:
            break
    else:
        return []  # (no seat waits: the usual case, once every seat was taken)
    occupied = {seat.player_id for seat in match.seats if seat.occupied}
    return [player_id for player_id, seat in clock.seats.items() if seat.waiting and player_id in occupied]


def waiting_due(
    clock: ClockState, active: Sequence[str], stamp: datetime, due: datetime | None
) -> datetime | None:
    """A write's due time: ``due``, or ``stamp`` when a seat to act still waits for its player, so
    the keeper looks at once (a player who took the seat while the write was under way is not
    left with a clock that never starts)."""
    seats = clock.seats
    for player_id in active:
        seat = seats.get(player_id)
        if seat is not None and seat.waiting:
            return stamp if due is None or stamp < due else due
    return due


def caught_up(
    store: Store, match: LoadedMatch, control: TimeControl, clock: ClockState, head: int
) -> ClockState:
    """The clock (stored at ``head``) at the match's head: each write since, at the time the server
    recorded it (a write's actions share one ``created_at``)."""
    if match.row.head < head:  # an undo cut the log: the clock restarts for whoever is to act
        return advance_clock(control, clock, now_ms=to_ms(match.row.updated_at), active=active_seats(match))
    rows = [row for row in store.actions(match.row.id, after=head - 1) if row.index < match.row.head]
    writes = _writes(rows)
    final = active_seats(match)
    for n, write in enumerate(writes):
        acted = [r.player_id for r in write if r.source == "user" and r.player_id and not _timed_out(r)]
        timed = [r.player_id for r in write if r.source == "user" and r.player_id and _timed_out(r)]
        nxt = writes[n + 1] if n + 1 < len(writes) else None
        active = final if nxt is None else [r.player_id for r in nxt if r.source == "user" and r.player_id]
        clock = advance_clock(
            control, clock, now_ms=to_ms(write[0].created_at), acted=acted, timed_out=timed, active=active
        )
    if not writes and match.row.status != "in_progress":
        clock = advance_clock(control, clock, now_ms=to_ms(match.row.updated_at), active=[])
    return clock


def clock_json(
    control: TimeControl,
    shown: ShownSettings,
    clock: ClockState,
    head: int,
    away: frozenset[str],
    in_progress: bool,
    moment: datetime,
) -> JsonValue:
    """The ``ClockView`` JSON: each seat's time left as of ``moment`` (the server's clock), with
    the settings as ``shown`` (dumped once per clock, not per view)."""
    now_ms = to_ms(moment)
    seats: list[JsonValue] = []
    for player_id, seat in clock.seats.items():
        if in_progress:
            due = due_of(control, seat)
            remaining = seat.bank_ms if due is None else max(0, due - now_ms)  # (``remaining_of``)
        else:
            due, remaining = None, remaining_of(control, seat, now_ms)
        seats.append(
            {
                "player_id": player_id,
                "remaining_ms": remaining,
                "running": due is not None,
                "due_at": None if due is None else datetime.fromtimestamp(due / 1000, UTC).isoformat(),
                "timeouts": seat.timeouts,
                "away": player_id in away,
            }
        )
    return {
        **shown,
        "index": head,
        "server_time": moment.isoformat(),
        "seats": seats,
    }


def _timed_out(row: ActionRow) -> bool:
    return (row.submission_id or row.action_id).startswith(TIMEOUT_PREFIX)


def _writes(rows: Sequence[ActionRow]) -> list[list[ActionRow]]:
    """The action rows grouped by the write that recorded them (one ``created_at`` per write)."""
    groups: list[list[ActionRow]] = []
    for row in rows:
        if groups and groups[-1][0].created_at == row.created_at:
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups
