"""The store: one class over all its parts (``Store``), and the writes of a match's life: actions
appended, undone or migrated, each a compare-and-set on the revision."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from sqlalchemy import Connection, bindparam, delete, insert, update
from sqlalchemy.exc import IntegrityError

from tabletop_server.storage._access import record_key
from tabletop_server.storage._clock_writes import ClockWrite, clock_along, write_clock
from tabletop_server.storage._clocks import ClockStore, TimeoutRow, timeout_values
from tabletop_server.storage._convert import action_values, now
from tabletop_server.storage._creation import CreationStore
from tabletop_server.storage._errors import (
    DuplicateActionIdError,
    HeadMovedError,
    IdempotentRetryError,
    IndexOutOfRangeError,
    StorageError,
)
from tabletop_server.storage._links import RematchStore
from tabletop_server.storage._notify import notify_change
from tabletop_server.storage._outbox import OutboxEvent, OutboxStore, queue_events, queued_along
from tabletop_server.storage._retention import RetentionStore
from tabletop_server.storage._rows import (
    MatchRow,
    MatchUpdate,
    NewAction,
    NewIdempotencyKey,
)
from tabletop_server.storage._seats import SeatStore
from tabletop_server.storage._stand_ins import StandInStore
from tabletop_server.storage._tables import actions as action_table
from tabletop_server.storage._tables import matches, snapshots, timeouts
from tabletop_server.storage._validate import check_indices, check_unique
from tabletop_server.storage._writes import (
    _advance,
    _guard,
    _insert_actions,
    _insert_snapshot,
    _updated,
)

__all__ = ["Store"]


class Store(CreationStore, SeatStore, RetentionStore, ClockStore, StandInStore, OutboxStore, RematchStore):
    """Matches, seats, action logs and stream tokens in one SQL database.

    Thread-safe; one per process. Every write of a match is a compare-and-set: the caller reads
    the match (``get_match``), runs the engine on its state, and passes the row it read as
    ``expected``; the write succeeds only if nobody wrote the match since, else it raises
    ``HeadMovedError`` and the caller re-reads and re-runs (the engine is pure) or answers 409.

    Args:
        url: ``sqlite:///FILE``, ``postgresql://...`` (psycopg 3), a SQLite file path, or None for
            the default SQLite file (see ``default_database_url``). The schema must be current:
            call ``upgrade(url)`` first.
        options: Pool sizes and timeouts.

    Raises:
        ValueError: The URL is unusable.
    """

    def append(
        self,
        expected: MatchRow,
        change: MatchUpdate,
        actions: Sequence[NewAction],
        *,
        seat: tuple[str, str] | None = None,
        snapshot: bool = False,
        events: Sequence[OutboxEvent] = (),
        clock: ClockWrite | None = None,
        timeout: TimeoutRow | None = None,
    ) -> MatchRow:
        """Record actions and the state they led to, if the match is still as ``expected`` was read.

        One transaction: advance the head (by ``len(actions)``) and the revision only if the
        revision is unchanged, then insert the actions (unique per match on index and on id),
        and with ``snapshot`` the new state as the snapshot at the new head.

        Args:
            expected: The match as read before running the engine.
            change: The new state, status and result.
            actions: The recorded actions, with indices ``expected.head, expected.head + 1, ...``.
            seat: ``(player_id, token_hash)``: write only if that token still holds that seat
                (checked in the same statement as the revision, so a caller may authenticate
                against seats it read earlier); else ``HeadMovedError`` (re-read and re-check).
            snapshot: Also keep ``change.state_json`` as the snapshot at the new head (see
                ``tabletop_server._snapshots``).
            events: Notifications the write causes: queued in its transaction for the webhooks
                of the seats they are for (see ``tabletop_server.storage._outbox``).
            clock: The match's clock as of this write, stored in its transaction (see
                ``tabletop_server._clocks``).
            timeout: The timeout these actions answer (a seat's loss on time), recorded in the
                same transaction: once per (match, head, seat), so a timeout another worker
                recorded already fails the write as the match having moved.

        Returns:
            The match as now stored.

        Raises:
            HeadMovedError: Someone wrote the match since ``expected`` was read.
            DuplicateActionIdError: An action with one of these ids is recorded already (a retry:
                look the original up with ``action_by_id``/``submission``).
            UnknownMatchError: The match is gone.
            ValueError: No actions, or indices that do not follow on from ``expected.head``.
        """
        work, stamp, head = self._append_job(
            expected, change, actions, seat, snapshot, events, clock, timeout
        )
        try:
            self._transact(work)
        except (IntegrityError, sqlite3.IntegrityError):
            raise self._append_conflict(expected, actions) from None
        return _updated(expected, change, head, stamp)

    async def append_async(
        self,
        expected: MatchRow,
        change: MatchUpdate,
        actions: Sequence[NewAction],
        *,
        seat: tuple[str, str] | None = None,
        snapshot: bool = False,
        events: Sequence[OutboxEvent] = (),
        clock: ClockWrite | None = None,
    ) -> MatchRow:
        """``append`` for the event loop: waits for the commit without blocking the loop.

        Raises:
            HeadMovedError: As ``append``.
            DuplicateActionIdError: As ``append``.
            UnknownMatchError: As ``append``.
            ValueError: As ``append``.
        """
        work, stamp, head = self._append_job(expected, change, actions, seat, snapshot, events, clock)
        try:
            await self._transact_async(work)
        except (IntegrityError, sqlite3.IntegrityError):
            raise self._append_conflict(expected, actions) from None
        return _updated(expected, change, head, stamp)

    def _append_job(
        self,
        expected: MatchRow,
        change: MatchUpdate,
        actions: Sequence[NewAction],
        seat: tuple[str, str] | None,
        snapshot: bool = False,
        events: Sequence[OutboxEvent] = (),
        clock: ClockWrite | None = None,
        timeout: TimeoutRow | None = None,
    ) -> tuple[Callable[[Connection], None], datetime, int]:
        if not actions:
            msg = "append needs at least one action"
            raise ValueError(msg)
        check_indices(expected.id, expected.head, actions)
        check_unique(expected.id, (), actions)
        stamp = now()
        head = expected.head + len(actions)
        rows = [action_values(expected.id, a, stamp) for a in actions]
        bots = expected.has_bots and change.status == "in_progress"
        timed = None if clock is None else clock(stamp)
        queued = events if expected.webhooks else ()  # (no seat has a webhook: nothing to deliver)

        def work(connection: Connection) -> None:
            _advance(
                connection, expected, change, head, stamp, seat=seat, unwatched=bool(events) and not queued
            )
            _insert_actions(connection, rows)
            if timeout is not None:
                connection.execute(insert(timeouts).values(timeout_values(expected.id, timeout)))
            if snapshot:
                _insert_snapshot(connection, expected.id, head, change.state_json, stamp)
            if self.dialect == "postgresql":  # (outbox rows, clock and notification: one statement)
                along = queued_along(expected.id, expected.revision + 1, head, queued, stamp)
                if timed is not None:
                    along.append(clock_along(expected.id, head, timed, stamp))
                notify_change(connection, expected.id, head, bot_may_move=bots, along=along)
                return
            if queued:
                queue_events(connection, expected.id, expected.revision + 1, head, queued, stamp)
            if timed is not None:
                write_clock(connection, expected.id, head, timed, stamp)

        return work, stamp, head

    def _append_conflict(self, expected: MatchRow, actions: Sequence[NewAction]) -> StorageError:
        recorded = [
            a.action_id
            for a in actions
            if a.source == "user" and self.action_by_id(expected.id, a.action_id, a.player_id) is not None
        ]
        if recorded:
            return DuplicateActionIdError(expected.id, recorded[0])
        current = self.get_match(expected.id)
        return HeadMovedError(
            expected.id, expected_head=expected.head, head=current.head, revision=current.revision
        )

    def rewind(
        self,
        expected: MatchRow,
        to_index: int,
        change: MatchUpdate,
        *,
        idempotency: NewIdempotencyKey | None = None,
        events: Sequence[OutboxEvent] = (),
    ) -> MatchRow:
        """Cut the log back to its first ``to_index`` actions (an undo), if unchanged since read.

        Deletes the actions with index >= ``to_index`` (and the snapshots after ``to_index``) and
        stores the rewound state, under the same guard as ``append``; the revision still increases.
        ``events`` (the seats the undo makes active) are queued in the same transaction, as by
        ``append``: their ids carry the new revision, so they differ from the events of the writes
        that first reached ``to_index``.

        Raises:
            HeadMovedError: Someone wrote the match since ``expected`` was read.
            IndexOutOfRangeError: ``to_index`` is outside ``expected.base_index .. expected.head``.
            UnknownMatchError: The match is gone.
        """
        if not expected.base_index <= to_index <= expected.head:
            raise IndexOutOfRangeError(expected.id, to_index, expected.base_index, expected.head)
        stamp = now()
        queued = events if expected.webhooks else ()  # (no seat has a webhook: nothing to deliver)

        def cut(connection: Connection) -> None:
            _advance(connection, expected, change, to_index, stamp, unwatched=bool(events) and not queued)
            connection.execute(
                delete(action_table).where(
                    action_table.c.match_id == expected.id, action_table.c.index >= to_index
                )
            )
            connection.execute(
                delete(snapshots).where(snapshots.c.match_id == expected.id, snapshots.c.index > to_index)
            )
            bots = expected.has_bots and change.status == "in_progress"
            if idempotency is not None:
                record_key(connection, idempotency, expected.id)
            if queued:
                queue_events(connection, expected.id, expected.revision + 1, to_index, queued, stamp)
            self._notify(connection, expected.id, to_index, bots=bots)

        try:
            self._transact(cut)
        except (IntegrityError, sqlite3.IntegrityError):
            if idempotency is not None and self.idempotency_record(idempotency.scope, idempotency.key):
                raise IdempotentRetryError(idempotency.scope) from None
            raise
        return _updated(expected, change, to_index, stamp)

    def migrate(
        self,
        expected: MatchRow,
        logic_version: str,
        change: MatchUpdate,
        rewritten: Sequence[tuple[int, str]] = (),
    ) -> MatchRow:
        """Store a match migrated to ``logic_version``, if unchanged since ``expected`` was read.

        One transaction under the same compare-and-set as ``append``: the match gets the new
        version, the migrated state (``change``) both as its current state and as its replay
        base (``base_state_json``, with ``base_index`` = its head: the actions before it stay
        as history and are never replayed), the version it came from and the time
        (``migrated_from``, ``migrated_at``); ``rewritten`` replaces the stored JSON of recorded
        actions by index (their migrated documents). The head does not move; the revision does.

        Raises:
            HeadMovedError: Someone wrote (or migrated) the match since ``expected`` was read.
            UnknownMatchError: The match is gone.
        """
        stamp = now()
        values = {
            "logic_version": logic_version,
            "revision": expected.revision + 1,
            "state": change.state_json,
            "checksum": change.checksum,
            "status": change.status,
            "result": change.result,
            "winners": list(change.winners),
            "base_state": change.state_json,
            "base_index": expected.head,
            "migrated_from": expected.logic_version,
            "migrated_at": stamp,
            "updated_at": stamp,
        }

        def work(connection: Connection) -> None:
            moved = connection.execute(
                update(matches)
                .where(matches.c.id == expected.id, matches.c.revision == expected.revision)
                .values(**values)
            )
            if moved.rowcount != 1:
                _guard(connection, expected)  # raises UnknownMatchError or HeadMovedError
                raise HeadMovedError(
                    expected.id, expected_head=expected.head, head=expected.head, revision=expected.revision
                )
            if rewritten:
                connection.execute(
                    update(action_table)
                    .where(
                        action_table.c.match_id == expected.id,
                        action_table.c.index == bindparam("at"),
                    )
                    .values(action=bindparam("json")),
                    [{"at": index, "json": text} for index, text in rewritten],
                )
            bots = expected.has_bots and change.status == "in_progress"
            self._notify(connection, expected.id, expected.head, bots=bots)

        self._transact(work)
        return replace(
            _updated(expected, change, expected.head, stamp),
            logic_version=logic_version,
            base_state_json=change.state_json,
            base_index=expected.head,
            migrated_from=expected.logic_version,
            migrated_at=stamp,
        )
