"""Retention: deleting matches never started or abandoned."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Connection, and_, delete, exists, or_, select

from tabletop_server.storage._base import StoreBase
from tabletop_server.storage._tables import actions, matches

__all__ = ["RetentionStore"]

BATCH = 500
"""Matches deleted per transaction (a purge never holds the writer long)."""


class RetentionStore(StoreBase):
    """Purges (part of ``Store``)."""

    def purge_matches(
        self, *, unstarted_before: datetime | None = None, abandoned_before: datetime | None = None
    ) -> int:
        """Delete matches (with their seats, actions and stream tokens); returns how many.

        Args:
            unstarted_before: Delete every match in which no player ever acted (no user action
                recorded) created and last changed before this time.
            abandoned_before: Delete every unfinished match created and last changed before
                this time. Finished matches are never deleted.
        """
        conditions = []
        if unstarted_before is not None:
            acted = exists().where(actions.c.match_id == matches.c.id, actions.c.source == "user")
            conditions.append(
                and_(
                    matches.c.created_at < unstarted_before,
                    matches.c.updated_at < unstarted_before,
                    ~acted,
                )
            )
        if abandoned_before is not None:
            conditions.append(
                and_(
                    matches.c.status == "in_progress",
                    matches.c.created_at < abandoned_before,
                    matches.c.updated_at < abandoned_before,
                )
            )
        if not conditions:
            return 0
        query = select(matches.c.id).where(or_(*conditions)).limit(BATCH)

        def purge(connection: Connection) -> int:
            ids = list(connection.execute(query).scalars())
            if ids:
                connection.execute(delete(matches).where(matches.c.id.in_(ids)))
            return len(ids)

        total = 0
        while True:
            deleted = self._transact(purge)
            total += deleted
            if deleted < BATCH:
                return total
