"""The store's reads of matches and their logs (part of ``Store``)."""

from __future__ import annotations

from sqlalchemy import bindparam, case, func, select

from tabletop_server.storage._base import StoreBase
from tabletop_server.storage._convert import action_row, match_row
from tabletop_server.storage._driver import _sqlite_match_and_seats
from tabletop_server.storage._rows import ActionRow, MatchRow, SeatRow, UndoRow, _group_of
from tabletop_server.storage._seats import _seats
from tabletop_server.storage._tables import actions as action_table
from tabletop_server.storage._tables import matches, snapshots
from tabletop_server.storage._writes import _match

__all__ = ["MatchReads"]


class MatchReads(StoreBase):
    """Matches, their seats and their action logs as stored (part of ``Store``)."""

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

    def undo_tail(self, match_id: str, player_id: str, *, after: int) -> list[UndoRow]:
        """The actions after index ``after`` that the undo rule reads for ``player_id``, in order:
        from the seat's last user action on (or all of them when it has none after ``after``),
        their narrow columns only."""
        parameters = {"match_id": match_id, "after": after, "player_id": player_id}
        with self._read() as connection:
            rows = connection.execute(_UNDO_TAIL, parameters).all()
        return [
            UndoRow(
                index=index,
                player_id=player,
                source=source,
                reveals_info=bool(reveals_info),
                simultaneous_group_id=None if action is None else _group_of(action),
            )
            for index, player, source, reveals_info, action in rows
        ]

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

_IN_WINDOW = (action_table.c.match_id == bindparam("match_id"), action_table.c.index > bindparam("after"))
_LAST_OWN = (
    select(func.max(action_table.c.index))
    .where(*_IN_WINDOW, action_table.c.source == "user", action_table.c.player_id == bindparam("player_id"))
    .scalar_subquery()
)
_UNDO_TAIL = (
    select(
        action_table.c.index,
        action_table.c.player_id,
        action_table.c.source,
        action_table.c.reveals_info,
        case((action_table.c.source == "user", action_table.c.action), else_=None),
    )
    .where(*_IN_WINDOW, action_table.c.index >= func.coalesce(_LAST_OWN, -1))
    .order_by(action_table.c.index)
)
