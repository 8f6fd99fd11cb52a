"""Clocks and timeouts: the rows that make deadlines durable (part of ``Store``).

A clocked match has one ``clocks`` row: its settings, every seat's clock as of a head, and the
next due time. Workers find due rows with ``due_clocks`` and take each with ``lease_clocks``: one
short transaction that locks the rows it takes (PostgreSQL: ``FOR UPDATE SKIP LOCKED``, so two
workers never take the same row; SQLite: its single writer) and leases them for a while, so a
worker killed mid-way leaves the row to another once the lease ends. A timeout is recorded once
per (match, head, seat): the primary key is the guard against handling the same expiry twice.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

import orjson
from sqlalchemy import Connection, bindparam, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from tabletop_server.storage._base import StoreBase
from tabletop_server.storage._convert import now, sqlite_time, utc
from tabletop_server.storage._driver import _sqlite
from tabletop_server.storage._errors import HeadMovedError
from tabletop_server.storage._notify import Along, notify_change
from tabletop_server.storage._outbox import OutboxEvent, queue_events
from tabletop_server.storage._rows import JsonObject, MatchRow, MatchUpdate
from tabletop_server.storage._tables import clocks, matches, timeouts
from tabletop_server.storage._writes import _advance

__all__ = [
    "ClaimClock",
    "ClockClaim",
    "ClockRow",
    "ClockStore",
    "ClockWrite",
    "NewClock",
    "TimeoutRow",
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


@dataclass(frozen=True, slots=True)
class ClockRow:
    """A match's stored clock.

    Attributes:
        match_id: The match.
        settings: The ``ClockSettings`` JSON.
        state_json: The ``ClockState`` JSON as of ``head``.
        head: The match head the clock state is at.
        due_at: When the next seat's time runs out (None: nobody's clock runs).
    """

    match_id: str
    settings: JsonObject
    state_json: str
    head: int
    due_at: datetime | None


@dataclass(frozen=True, slots=True)
class TimeoutRow:
    """A recorded timeout: what the server observed and what it did.

    Attributes:
        index: The match head the seat's time ran out at.
        player_id: The seat.
        due_at: When its time ran out.
        observed_at: When the server handled it.
        policy: The policy in force (``bot``, ``pass``, ``forfeit``).
        outcome: What happened: ``bot``, ``pass``, ``forfeit``, or ``superseded`` (the match
            moved on before the server's move was written).
        action_id: The id of the action played for the seat, if any.
    """

    index: int
    player_id: str
    due_at: datetime
    observed_at: datetime
    policy: str
    outcome: str
    action_id: str | None


def _clock_row(row: object) -> ClockRow:
    mapping = dict(row)  # type: ignore[call-overload]
    due = mapping["due_at"]
    return ClockRow(
        match_id=str(mapping["match_id"]),
        settings=dict(mapping["settings"]),
        state_json=str(mapping["state"]),
        head=int(mapping["head"]),
        due_at=None if due is None else utc(due),
    )


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

_SEAT_STARTED = (
    update(clocks)
    .where(
        clocks.c.match_id == bindparam("started_match"),
        clocks.c.head == bindparam("started_head"),
        clocks.c.state == bindparam("started_was"),
    )
    .values(
        state=bindparam("started_state"),
        due_at=bindparam("started_due", type_=clocks.c.due_at.type),
        updated_at=bindparam("started_at", type_=clocks.c.updated_at.type),
    )
)


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
        else:
            moved = connection.execute(
                _SEAT_STARTED,
                {
                    "started_match": match_id,
                    "started_head": clock.head,
                    "started_was": clock.state_json,
                    "started_state": state_json,
                    "started_due": due_at,
                    "started_at": stamp,
                },
            ).rowcount
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


def write_clock(connection: Connection, match_id: str, head: int, clock: tuple[str, datetime | None]) -> None:
    """SQLite: store the clock as of ``head`` (in the transaction of the write that made it),
    unless one at a later head is stored: one prepared statement on the raw connection, as the
    action's own statements. On PostgreSQL a write's clock rides in its notification instead
    (``clock_along``).

    Args:
        connection: The write's transaction.
        match_id: The match.
        head: The head the write moves the match to.
        clock: The clock's JSON and next due time.
    """
    raw = _sqlite(connection)
    assert raw is not None, "PostgreSQL writes the clock with clock_along"
    state_json, due_at = clock
    due = None if due_at is None else sqlite_time(due_at)
    stamp = sqlite_time(now())
    raw.execute(_SQLITE_WRITE_CLOCK, (state_json, head, due, stamp, match_id, head))


def clock_along(match_id: str, head: int, clock: tuple[str, datetime | None]) -> Along:
    """PostgreSQL: ``write_clock`` as a clause of the write's notification (``notify_change``),
    so a clocked action costs no round trip of its own."""
    state_json, due_at = clock
    values: dict[str, object] = {
        "clock_match": match_id,
        "clock_head": head,
        "clock_state": state_json,
        "clock_due": due_at,
        "clock_stamp": now(),
    }
    return _PG_WRITE_CLOCK, values


class ClockStore(StoreBase):
    """Clock rows and timeouts (part of ``Store``)."""

    def get_clock(self, match_id: str) -> ClockRow | None:
        """The match's clock, or None for a match without one."""
        with self._read() as connection:
            found = connection.execute(select(clocks).where(clocks.c.match_id == match_id)).mappings().first()
        return None if found is None else _clock_row(found)

    def save_clock(self, match_id: str, state_json: str, head: int, due_at: datetime | None) -> bool:
        """Store the clock as of ``head`` unless a clock at a later head is stored; ends any lease.

        Returns:
            True if written.
        """

        def work(connection: Connection) -> int:
            result = connection.execute(
                update(clocks)
                .where(clocks.c.match_id == match_id, clocks.c.head <= head)
                .values(state=state_json, head=head, due_at=due_at, lease_until=None, updated_at=now())
            )
            return int(result.rowcount)

        return self._transact(work) == 1

    def announce_low(
        self,
        match_id: str,
        head: int,
        due_was: datetime,
        due_next: datetime | None,
        event: OutboxEvent,
        revision: int,
    ) -> bool:
        """Queue a ``clock-low`` event and move the clock's due time past its low point, in one
        transaction, if the clock is still at ``head`` and due at ``due_was`` (a compare-and-set:
        of two workers, or a worker and its restart, only one queues it); ends the lease.

        Returns:
            True if queued.
        """

        def work(connection: Connection) -> bool:
            moved = connection.execute(
                update(clocks)
                .where(clocks.c.match_id == match_id, clocks.c.head == head, clocks.c.due_at == due_was)
                .values(due_at=due_next, lease_until=None)
            )
            if moved.rowcount != 1:
                return False
            queue_events(connection, match_id, revision, head, [event], now())
            return True

        return self._transact(work)

    def release_clock(self, match_id: str) -> None:
        """End this worker's lease of the clock (it looked and found nothing to do)."""
        self._transact(
            lambda connection: connection.execute(
                update(clocks).where(clocks.c.match_id == match_id).values(lease_until=None)
            )
        )

    def due_clocks(self, at: datetime, *, limit: int = 50) -> list[str]:
        """Clocks that need a look at ``at``: in-progress matches whose due time passed, or whose
        clock lags behind their head (a worker stopped between a write and its clock's update),
        and that no other worker holds a lease on."""
        query = (
            select(clocks.c.match_id)
            .join(matches, matches.c.id == clocks.c.match_id)
            .where(
                matches.c.status == "in_progress",
                or_(clocks.c.due_at <= at, clocks.c.head != matches.c.head),
                or_(clocks.c.lease_until.is_(None), clocks.c.lease_until < at),
            )
            .order_by(clocks.c.due_at)
            .limit(limit)
        )
        with self._read() as connection:
            return [str(row[0]) for row in connection.execute(query)]

    def lease_clocks(self, match_ids: Sequence[str], at: datetime, lease: timedelta) -> list[ClockRow]:
        """Take the clocks no other worker holds (PostgreSQL: ``FOR UPDATE SKIP LOCKED``), leased
        until ``at + lease``: only this worker handles them until it saves or releases them."""
        if not match_ids:
            return []
        free = or_(clocks.c.lease_until.is_(None), clocks.c.lease_until < at)

        def work(connection: Connection) -> list[ClockRow]:
            query = select(clocks).where(clocks.c.match_id.in_(list(match_ids)), free)
            if self.dialect == "postgresql":
                query = query.with_for_update(skip_locked=True)
            taken = [_clock_row(row) for row in connection.execute(query).mappings()]
            if taken:
                connection.execute(
                    update(clocks)
                    .where(clocks.c.match_id.in_([row.match_id for row in taken]))
                    .values(lease_until=at + lease)
                )
            return taken

        return self._transact(work)

    def record_timeout(self, match_id: str, entry: TimeoutRow) -> bool:
        """Record a timeout once: False if this seat's timeout at this head is recorded already."""
        values = {
            "match_id": match_id,
            "index": entry.index,
            "player_id": entry.player_id,
            "due_at": entry.due_at,
            "observed_at": entry.observed_at,
            "policy": entry.policy,
            "outcome": entry.outcome,
            "action_id": entry.action_id,
        }
        try:
            self._transact(lambda connection: connection.execute(insert(timeouts).values(values)))
        except (IntegrityError, sqlite3.IntegrityError):
            return False
        return True

    def settle_timeout(
        self, match_id: str, index: int, player_id: str, outcome: str, action_id: str | None
    ) -> None:
        """Record what a timeout led to."""
        self._transact(
            lambda connection: connection.execute(
                update(timeouts)
                .where(
                    timeouts.c.match_id == match_id,
                    timeouts.c.index == index,
                    timeouts.c.player_id == player_id,
                )
                .values(outcome=outcome, action_id=action_id)
            )
        )

    def forfeit(
        self, expected: MatchRow, change: MatchUpdate, entry: TimeoutRow, events: Sequence[OutboxEvent] = ()
    ) -> bool:
        """End the match on a seat's timeout, in one transaction with its timeout record (and the
        ``events`` it causes, queued in the outbox), if the match is still as ``expected`` was read
        (compare-and-set on its revision).

        Returns:
            False if the match moved on or the timeout is recorded already (nothing written).
        """
        stamp = now()
        values = {
            "match_id": expected.id,
            "index": entry.index,
            "player_id": entry.player_id,
            "due_at": entry.due_at,
            "observed_at": entry.observed_at,
            "policy": entry.policy,
            "outcome": entry.outcome,
            "action_id": None,
        }

        def work(connection: Connection) -> None:
            connection.execute(insert(timeouts).values(values))
            _advance(connection, expected, change, expected.head, stamp)
            connection.execute(
                update(clocks).where(clocks.c.match_id == expected.id).values(due_at=None, lease_until=None)
            )
            if events:
                queue_events(connection, expected.id, expected.revision + 1, expected.head, events, stamp)
            self._notify_clock(connection, expected.id, expected.head)

        try:
            self._transact(work)
        except (IntegrityError, sqlite3.IntegrityError, HeadMovedError):
            return False
        return True

    def _notify_clock(self, connection: Connection, match_id: str, head: int) -> None:
        if self.dialect == "postgresql":
            notify_change(connection, match_id, head, bot_may_move=False)

    def timeouts_of(self, match_id: str) -> list[TimeoutRow]:
        """The match's recorded timeouts, oldest first."""
        query = (
            select(timeouts)
            .where(timeouts.c.match_id == match_id)
            .order_by(timeouts.c.index, timeouts.c.observed_at, timeouts.c.player_id)
        )
        with self._read() as connection:
            rows = connection.execute(query).mappings().all()
        return [
            TimeoutRow(
                index=int(row["index"]),
                player_id=str(row["player_id"]),
                due_at=utc(row["due_at"]),
                observed_at=utc(row["observed_at"]),
                policy=str(row["policy"]),
                outcome=str(row["outcome"]),
                action_id=row["action_id"],
            )
            for row in rows
        ]
