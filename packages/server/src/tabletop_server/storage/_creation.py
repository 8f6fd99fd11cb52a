"""The store's new matches: a created match and a fork (part of ``Store``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import replace

from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from tabletop_server.storage._access import AccessStore, record_key
from tabletop_server.storage._clock_writes import NewClock, insert_clock
from tabletop_server.storage._convert import now
from tabletop_server.storage._errors import DuplicateMatchError, IdempotentRetryError, IndexOutOfRangeError
from tabletop_server.storage._reads import MatchReads
from tabletop_server.storage._rows import MatchRow, NewAction, NewIdempotencyKey, NewMatch, NewSeat
from tabletop_server.storage._validate import check_indices, check_unique
from tabletop_server.storage._writes import _copy_log, _guard, _insert_match, _insert_snapshot

__all__ = ["CreationStore"]


class CreationStore(MatchReads, AccessStore):
    """Stores new matches: created ones and forks (part of ``Store``)."""

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
            return row

        return self._insert_new(match.id, create, idempotency)

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
            return row

        return self._insert_new(fork.id, create, idempotency)

    def _insert_new(
        self, match_id: str, create: Callable[[Connection], MatchRow], idempotency: NewIdempotencyKey | None
    ) -> MatchRow:
        """Run ``create`` in a write transaction, with the idempotency key and the change notice
        of the new match; a clash on a unique key said as what it was."""

        def work(connection: Connection) -> MatchRow:
            row = create(connection)
            if idempotency is not None:
                record_key(connection, idempotency, row.id)
            self._notify(connection, row.id, row.head, bots=row.has_bots and row.status == "in_progress")
            return row

        try:
            return self._transact(work)
        except (IntegrityError, sqlite3.IntegrityError):
            if self._exists(match_id):
                raise DuplicateMatchError(match_id) from None
            if idempotency is not None and self.idempotency_record(idempotency.scope, idempotency.key):
                raise IdempotentRetryError(idempotency.scope) from None
            raise
