"""A clock's part of other writes: the clock a match's creation, a seat's claim and an action's
write store in their own transactions (part of the clocks storage, beside ``_clocks``).

The keeper computes each clock (``ClockWrite``: its JSON and next due time at the moment the
store records the write); these statements store it, on SQLite's raw connection where the write
itself is, and as a clause of the write's notification on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import orjson
from sqlalchemy import Connection, bindparam, insert, or_, text, update

from tabletop_server.storage._convert import sqlite_time
from tabletop_server.storage._driver import _sqlite
from tabletop_server.storage._notify import CHANNEL, Along, change_payload
from tabletop_server.storage._rows import JsonObject
from tabletop_server.storage._tables import clocks

__all__ = [
    "ClaimClock",
    "ClockClaim",
    "ClockWrite",
    "NewClock",
    "clock_along",
    "clock_seat_taken",
    "insert_clock",
    "write_clock",
]

ClockWrite = Callable[[datetime], tuple[str, datetime | None]]
"""A match's clock as of a write recorded at the given time: its ``ClockState`` JSON and its next
due time (computed by the keeper before the write's transaction, stored in it)."""


@dataclass(frozen=True, slots=True)
class NewClock:
    """The clock of a match being created: its ``ClockSettings`` JSON, the head it starts at
    (the match's), and its start."""

    settings: JsonObject
    head: int
    at: ClockWrite


@dataclass(slots=True)
class ClockClaim:
    """The clock of a match whose seat is being claimed, as the keeper knows it, with the seat
    still waiting for its player: stored at ``head`` as ``state_json``, and ``at`` gives it with
    the seat taken at a moment (its JSON and next due time)."""

    head: int
    state_json: str
    at: ClockWrite
    started: str | None = None
    """Set by the claim: the clock JSON its transaction stored (None: the stored clock was not
    this one, so the claim made it due instead and a keeper starts the seat)."""


ClaimClock = ClockClaim | Literal["unknown", "none"]
"""What a claim does to the match's clock: start the seat's (``ClockClaim``), make a clock the
keeper does not know due (``"unknown"``), or nothing (``"none"``: no clock, or the seat's runs)."""


_SQLITE_INSERT_CLOCK = (
    "INSERT INTO clocks (match_id, settings, state, head, due_at, lease_until, updated_at) "
    "VALUES (?, ?, ?, ?, ?, NULL, ?)"
)

_INSERT_CLOCK = insert(clocks).values(
    match_id=bindparam("clock_match"),
    settings=bindparam("clock_settings", type_=clocks.c.settings.type),
    state=bindparam("clock_state"),
    head=bindparam("clock_head"),
    due_at=bindparam("clock_due", type_=clocks.c.due_at.type),
    lease_until=None,
    updated_at=bindparam("clock_stamp", type_=clocks.c.updated_at.type),
)


def insert_clock(connection: Connection, match_id: str, clock: NewClock, stamp: datetime) -> None:
    """Store a new match's clock (in the transaction that creates the match; one prepared
    statement, SQLite: on the raw connection)."""
    state_json, due_at = clock.at(stamp)
    raw = _sqlite(connection)
    if raw is not None:
        due = None if due_at is None else sqlite_time(due_at)
        settings = orjson.dumps(clock.settings).decode()
        raw.execute(
            _SQLITE_INSERT_CLOCK,
            (match_id, settings, state_json, clock.head, due, sqlite_time(stamp)),
        )
        return
    connection.execute(
        _INSERT_CLOCK,
        {
            "clock_match": match_id,
            "clock_settings": clock.settings,
            "clock_state": state_json,
            "clock_head": clock.head,
            "clock_due": due_at,
            "clock_stamp": stamp,
        },
    )


_SEAT_TAKEN = (
    update(clocks)
    .where(
        clocks.c.match_id == bindparam("taken_match"),
        or_(clocks.c.due_at.is_(None), clocks.c.due_at > bindparam("taken_at", type_=clocks.c.due_at.type)),
    )
    .values(due_at=bindparam("taken_at", type_=clocks.c.due_at.type))
)


_SQLITE_SEAT_STARTED = (
    "UPDATE clocks SET state = ?, due_at = ?, updated_at = ? WHERE match_id = ? AND head = ? AND state = ?"
)

_PG_SEAT_STARTED = text(
    "WITH started AS (UPDATE clocks SET state = :started_state, due_at = :started_due, "
    "updated_at = :started_at WHERE match_id = :started_match AND head = :started_head "
    "AND state = :started_was RETURNING 1) "
    "SELECT (SELECT count(*) FROM started) AS moved, pg_notify(:channel, :payload) AS notified"
)
"""``_SQLITE_SEAT_STARTED`` for PostgreSQL, with the change's notification: how many rows moved."""


def clock_seat_taken(connection: Connection, match_id: str, stamp: datetime, clock: ClaimClock) -> None:
    """A player took a seat of the match at ``stamp`` (in the claim's transaction).

    With a ``ClockClaim``, the seat's clock starts here (``tabletop.clocks.take_seats``, computed
    by the keeper) if the stored clock is still the one the keeper knows: a compare-and-set on its
    head and JSON (PostgreSQL re-checks it after a concurrent claim's commit), so of two claims
    racing on one clock the second falls back. Otherwise, and for a clock the keeper does not
    know, the clock falls due at ``stamp``, so a keeper (any worker, even after a crash) starts the
    seat if it was waiting for its player.
    """
    if clock == "none":
        return
    if isinstance(clock, ClockClaim):
        clock.started = None  # (a retried claim: what a rolled-back try stored is gone)
        state_json, due_at = clock.at(stamp)
        raw = _sqlite(connection)
        if raw is not None:
            due = None if due_at is None else sqlite_time(due_at)
            values = (state_json, due, sqlite_time(stamp), match_id, clock.head, clock.state_json)
            moved = raw.execute(_SQLITE_SEAT_STARTED, values).rowcount
        else:  # the clock's change notified in the same statement: every worker's streams hear of it
            moved = connection.execute(
                _PG_SEAT_STARTED,
                {
                    "started_match": match_id,
                    "started_head": clock.head,
                    "started_was": clock.state_json,
                    "started_state": state_json,
                    "started_due": due_at,
                    "started_at": stamp,
                    "channel": CHANNEL,
                    "payload": change_payload(match_id, clock.head, bot_may_move=False),
                },
            ).one()[0]
        if moved == 1:
            clock.started = state_json
            return
    connection.execute(_SEAT_TAKEN, {"taken_match": match_id, "taken_at": stamp})


_SQLITE_WRITE_CLOCK = (
    "UPDATE clocks SET state = ?, head = ?, due_at = ?, updated_at = ? WHERE match_id = ? AND head <= ?"
)

_PG_WRITE_CLOCK = (
    "UPDATE clocks SET state = :clock_state, head = :clock_head, due_at = :clock_due, "
    "updated_at = :clock_stamp WHERE match_id = :clock_match AND head <= :clock_head"
)
"""``_SQLITE_WRITE_CLOCK`` for PostgreSQL, as a clause of the write's notification (``clock_along``)."""


def write_clock(
    connection: Connection, match_id: str, head: int, clock: tuple[str, datetime | None], stamp: datetime
) -> None:
    """SQLite: store the clock as of ``head`` (in the transaction of the write that made it),
    unless one at a later head is stored: one prepared statement on the raw connection, as the
    action's own statements. On PostgreSQL a write's clock rides in its notification instead
    (``clock_along``).

    Args:
        connection: The write's transaction.
        match_id: The match.
        head: The head the write moves the match to.
        clock: The clock's JSON and next due time.
        stamp: The time the write records (its match row's and actions'): the clock's as of it.
    """
    raw = _sqlite(connection)
    assert raw is not None, "PostgreSQL writes the clock with clock_along"
    state_json, due_at = clock
    written = sqlite_time(stamp)  # (the write's own rows' text, kept: before the due time's)
    due = None if due_at is None else sqlite_time(due_at)
    raw.execute(_SQLITE_WRITE_CLOCK, (state_json, head, due, written, match_id, head))


def clock_along(match_id: str, head: int, clock: tuple[str, datetime | None], stamp: datetime) -> Along:
    """PostgreSQL: ``write_clock`` as a clause of the write's notification (``notify_change``),
    so a clocked action costs no round trip of its own."""
    state_json, due_at = clock
    values: dict[str, object] = {
        "clock_match": match_id,
        "clock_head": head,
        "clock_state": state_json,
        "clock_due": due_at,
        "clock_stamp": stamp,
    }
    return _PG_WRITE_CLOCK, values
