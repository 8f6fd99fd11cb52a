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
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from tabletop_server.storage._base import StoreBase
from tabletop_server.storage._convert import now, utc
from tabletop_server.storage._notify import notify_change
from tabletop_server.storage._outbox import OutboxEvent, queue_events
from tabletop_server.storage._rows import JsonObject
from tabletop_server.storage._tables import clocks, matches, timeouts

__all__ = ["ClockRow", "ClockStore", "TimeoutRow", "timeout_values"]


def timeout_values(match_id: str, entry: TimeoutRow) -> dict[str, object]:
    """The ``timeouts`` row of ``entry``: inserted once per (match, head, seat)."""
    return {
        "match_id": match_id,
        "index": entry.index,
        "player_id": entry.player_id,
        "due_at": entry.due_at,
        "observed_at": entry.observed_at,
        "policy": entry.policy,
        "outcome": entry.outcome,
        "action_id": entry.action_id,
    }


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
            if result.rowcount == 1:  # every worker's streams hear of the clock's change
                self._notify_clock(connection, match_id, head)
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
        values = timeout_values(match_id, entry)
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
