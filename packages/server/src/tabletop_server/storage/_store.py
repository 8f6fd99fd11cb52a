"""The store: matches and their action logs, written with compare-and-set on the revision."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from sqlalchemy import Connection, bindparam, delete, func, select, update
from sqlalchemy.exc import IntegrityError

from tabletop_server.storage._access import record_key
from tabletop_server.storage._clocks import (
    ClockStore,
    ClockWrite,
    NewClock,
    clock_along,
    insert_clock,
    write_clock,
)
from tabletop_server.storage._convert import action_row, action_values, match_row, now
from tabletop_server.storage._driver import _sqlite_match_and_seats
from tabletop_server.storage._errors import (
    DuplicateActionIdError,
    DuplicateMatchError,
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
    ActionRow,
    MatchRow,
    MatchUpdate,
    NewAction,
    NewIdempotencyKey,
    NewMatch,
    NewSeat,
    SeatRow,
)
from tabletop_server.storage._seats import SeatStore, _seats
from tabletop_server.storage._stand_ins import StandInStore
from tabletop_server.storage._tables import actions as action_table
from tabletop_server.storage._tables import matches, snapshots
from tabletop_server.storage._validate import check_indices, check_unique
from tabletop_server.storage._writes import (
    _advance,
    _copy_log,
    _guard,
    _insert_actions,
    _insert_match,
    _insert_snapshot,
    _match,
    _updated,
)

__all__ = ["Store"]


class Store(SeatStore, RetentionStore, ClockStore, StandInStore, OutboxStore, RematchStore):
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

    def get_match(self, match_id: str) -> MatchRow:
        """The match as stored now.

        Raises:
            UnknownMatchError: No such match.
        """
        with self._read() as connection:
            return _match(connection, match_id)

    def get_match_and_seats(self, match_id: str) -> tuple[MatchRow, list[SeatRow]]:
        """The match and its seats, read in one transaction.

        Raises:
            UnknownMatchError: No such match.
        """
        with self._read() as connection:
            fast = _sqlite_match_and_seats(connection, match_id)
            return fast if fast is not None else (_match(connection, match_id), _seats(connection, match_id))

    def list_matches(
        self,
        *,
        game: str | None = None,
        status: str | None = None,
        limit: int = 100,
        offset: int = 0,
        visibility: str | None = None,
    ) -> list[MatchRow]:
        """Matches, newest first, optionally only of one game, status and/or visibility."""
        query = (
            select(matches).order_by(matches.c.created_at.desc(), matches.c.id).limit(limit).offset(offset)
        )
        if game is not None:
            query = query.where(matches.c.game == game)
        if status is not None:
            query = query.where(matches.c.status == status)
        if visibility is not None:
            query = query.where(matches.c.visibility == visibility)
        with self._read() as connection:
            return [match_row(row) for row in connection.execute(query).mappings()]

    def version_counts(self) -> list[tuple[str, str, str, int]]:
        """``(game, logic_version, status, count)`` of every stored match, sorted."""
        query = (
            select(matches.c.game, matches.c.logic_version, matches.c.status, func.count())
            .group_by(matches.c.game, matches.c.logic_version, matches.c.status)
            .order_by(matches.c.game, matches.c.logic_version, matches.c.status)
        )
        with self._read() as connection:
            rows = connection.execute(query)
            return [(game, version, status, int(count)) for game, version, status, count in rows]

    def matches_at(self, game: str, logic_version: str, *, limit: int = 1000) -> list[MatchRow]:
        """The matches of ``game`` stored under ``logic_version``, newest first."""
        query = (
            select(matches)
            .where(matches.c.game == game, matches.c.logic_version == logic_version)
            .order_by(matches.c.created_at.desc(), matches.c.id)
            .limit(limit)
        )
        with self._read() as connection:
            return [match_row(row) for row in connection.execute(query).mappings()]

    def actions(self, match_id: str, *, after: int = -1, limit: int | None = None) -> list[ActionRow]:
        """The recorded actions with index > ``after``, in order (empty for an unknown match)."""
        query = _ACTIONS_AFTER if limit is None else _ACTIONS_AFTER.limit(limit)
        with self._read() as connection:
            rows = connection.execute(query, {"match_id": match_id, "after": after}).mappings()
            return [action_row(row) for row in rows]

    def snapshot(self, match_id: str, index: int, *, lowest: int = 0) -> tuple[int, str] | None:
        """The latest snapshot at or before ``index`` (and at or after ``lowest``), as
        ``(its index, the state's JSON)``, or None."""
        query = (
            select(snapshots.c.index, snapshots.c.state)
            .where(
                snapshots.c.match_id == match_id,
                snapshots.c.index <= index,
                snapshots.c.index >= lowest,
            )
            .order_by(snapshots.c.index.desc())
            .limit(1)
        )
        with self._read() as connection:
            row = connection.execute(query).first()
        return None if row is None else (int(row[0]), str(row[1]))

    def action_by_id(self, match_id: str, action_id: str, player_id: str | None = None) -> ActionRow | None:
        """The recorded action with this id sent by ``player_id``'s seat (None: by the system, or
        recorded at the start), or None: the idempotency lookup of a retry. Action ids are
        idempotency keys scoped to the seat that sends them."""
        query = select(action_table).where(
            action_table.c.match_id == match_id,
            action_table.c.action_id == action_id,
            action_table.c.player_id.is_(None)
            if player_id is None
            else action_table.c.player_id == player_id,
        )
        with self._read() as connection:
            row = connection.execute(query).mappings().first()
        return None if row is None else action_row(row)

    def submission(self, match_id: str, submission_id: str, player_id: str) -> list[ActionRow]:
        """The actions ``player_id``'s submission with this id recorded (the submitted action and
        the system actions it caused), in order; empty if none (or if they were undone). A
        retry's original response is rebuilt from these."""
        query = (
            select(action_table)
            .where(action_table.c.match_id == match_id, action_table.c.submission_id == submission_id)
            .order_by(action_table.c.index)
        )
        with self._read() as connection:
            rows = [action_row(row) for row in connection.execute(query).mappings()]
        start = next((n for n, r in enumerate(rows) if r.source == "user" and r.player_id == player_id), None)
        if start is None:
            return []
        found = [rows[start]]
        for row in rows[start + 1 :]:  # its system actions follow it, up to the next submission
            if row.source == "user" or row.index != found[-1].index + 1:
                break
            found.append(row)
        return found

    def create_match(
        self,
        match: NewMatch,
        seats: Sequence[NewSeat],
        actions: Sequence[NewAction] = (),
        *,
        idempotency: NewIdempotencyKey | None = None,
        clock: NewClock | None = None,
    ) -> MatchRow:
        """Store a new match with its seats and the actions recorded at its start (and its
        ``clock``, in the same transaction).

        The head is ``match.base_index + len(actions)``; ``actions`` must have exactly the
        indices ``match.base_index, match.base_index + 1, ...``.

        Raises:
            DuplicateMatchError: A match with this id exists.
            DuplicateActionIdError: Two of ``actions`` share an id.
            IdempotentRetryError: ``idempotency``'s key was recorded meanwhile (a concurrent
                retry): nothing was written; answer with the recorded match.
            ValueError: The action indices do not follow on from ``match.base_index``, or two
                seats share a player id.
        """
        check_indices(match.id, match.base_index, actions)
        check_unique(match.id, seats, actions)
        stamp = now()

        def create(connection: Connection) -> MatchRow:
            row = _insert_match(connection, match, seats, actions, stamp)
            if clock is not None:
                insert_clock(connection, match.id, clock, stamp)
            if idempotency is not None:
                record_key(connection, idempotency, match.id)
            self._notify(connection, row.id, row.head, bots=row.has_bots and row.status == "in_progress")
            return row

        try:
            return self._transact(create)
        except (IntegrityError, sqlite3.IntegrityError):
            if self._exists(match.id):
                raise DuplicateMatchError(match.id) from None
            if idempotency is not None and self.idempotency_record(idempotency.scope, idempotency.key):
                raise IdempotentRetryError(idempotency.scope) from None
            raise

    def fork_match(
        self,
        parent: MatchRow,
        at_index: int,
        match: NewMatch,
        seats: Sequence[NewSeat],
        actions: Sequence[NewAction] | None = None,
        *,
        idempotency: NewIdempotencyKey | None = None,
    ) -> MatchRow:
        """Store a fork of ``parent`` taken after its first ``at_index`` actions.

        ``parent_id`` and ``parent_index`` are recorded from the arguments. Two kinds of fork:

        - ``match.base_state_json`` None: a replayable fork. It inherits the parent's base
          (``base_state_json``, ``base_index``) and its log is the parent's actions
          ``parent.base_index .. at_index - 1``: copied verbatim when ``actions`` is None, else
          ``actions`` (the same indices, e.g. rewritten for the fork's own game id).
        - ``match.base_state_json`` set (a determinized fork of a hidden-information match): it
          starts from that state at ``base_index = at_index`` with an empty log.

        ``match.state_json`` is the state at the fork point (the caller computed it from the rows
        of ``parent`` it read); the fork's head is ``at_index``.

        Raises:
            HeadMovedError: ``parent`` was written since it was read (re-read and retry).
            IndexOutOfRangeError: ``at_index`` is outside ``parent.base_index .. parent.head``.
            DuplicateMatchError: A match with the new id exists.
            ValueError: ``actions`` given for a determinized fork, or with the wrong indices.
        """
        if not parent.base_index <= at_index <= parent.head:
            raise IndexOutOfRangeError(parent.id, at_index, parent.base_index, parent.head)
        determinized = match.base_state_json is not None
        if determinized and actions:
            msg = "a fork from a base state starts with an empty log"
            raise ValueError(msg)
        fork = replace(
            match,
            parent_id=parent.id,
            parent_index=at_index,
            base_index=at_index if determinized else parent.base_index,
            base_state_json=match.base_state_json if determinized else parent.base_state_json,
        )
        if actions is not None:
            check_indices(fork.id, fork.base_index, actions)
            if fork.base_index + len(actions) != at_index:
                msg = f"a fork at {at_index} needs actions {fork.base_index}..{at_index - 1}"
                raise ValueError(msg)
        check_unique(fork.id, seats, actions or ())
        stamp = now()

        def create(connection: Connection) -> MatchRow:
            _guard(connection, parent)
            log = (
                actions
                if actions is not None
                else _copy_log(connection, parent.id, fork.base_index, at_index)
            )
            row = _insert_match(connection, fork, seats, [] if determinized else log, stamp)
            if not determinized and at_index > fork.base_index:  # replay starts here, not at the seed
                _insert_snapshot(connection, row.id, at_index, fork.state_json, stamp)
            if idempotency is not None:
                record_key(connection, idempotency, row.id)
            self._notify(connection, row.id, row.head, bots=row.has_bots and row.status == "in_progress")
            return row

        try:
            return self._transact(create)
        except (IntegrityError, sqlite3.IntegrityError):
            if self._exists(fork.id):
                raise DuplicateMatchError(fork.id) from None
            if idempotency is not None and self.idempotency_record(idempotency.scope, idempotency.key):
                raise IdempotentRetryError(idempotency.scope) from None
            raise

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

        Returns:
            The match as now stored.

        Raises:
            HeadMovedError: Someone wrote the match since ``expected`` was read.
            DuplicateActionIdError: An action with one of these ids is recorded already (a retry:
                look the original up with ``action_by_id``/``submission``).
            UnknownMatchError: The match is gone.
            ValueError: No actions, or indices that do not follow on from ``expected.head``.
        """
        work, stamp, head = self._append_job(expected, change, actions, seat, snapshot, events, clock)
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
            if snapshot:
                _insert_snapshot(connection, expected.id, head, change.state_json, stamp)
            if self.dialect == "postgresql":  # (outbox rows, clock and notification: one statement)
                along = queued_along(expected.id, expected.revision + 1, head, queued, stamp)
                if timed is not None:
                    along.append(clock_along(expected.id, head, timed))
                notify_change(connection, expected.id, head, bot_may_move=bots, along=along)
                return
            if queued:
                queue_events(connection, expected.id, expected.revision + 1, head, queued, stamp)
            if timed is not None:
                write_clock(connection, expected.id, head, timed)

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

    def _notify(self, connection: Connection, match_id: str, head: int, *, bots: bool) -> None:
        """PostgreSQL: tell every worker about the change when this transaction commits."""
        if self.dialect == "postgresql":
            notify_change(connection, match_id, head, bot_may_move=bots)

    def _exists(self, match_id: str) -> bool:
        with self._read() as connection:
            return (
                connection.execute(select(matches.c.id).where(matches.c.id == match_id)).first() is not None
            )


_ACTIONS_AFTER = (
    select(action_table)
    .where(action_table.c.match_id == bindparam("match_id"), action_table.c.index > bindparam("after"))
    .order_by(action_table.c.index)
)
