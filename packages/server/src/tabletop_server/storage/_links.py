"""Rematch links: a finished match and the match that replays it with the same seats."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

from sqlalchemy import Connection, insert, or_, select
from sqlalchemy.exc import IntegrityError

from tabletop_server.storage._base import StoreBase
from tabletop_server.storage._clock_writes import NewClock, insert_clock
from tabletop_server.storage._convert import now
from tabletop_server.storage._rows import MatchRow, NewAction, NewMatch, NewSeat
from tabletop_server.storage._tables import rematches
from tabletop_server.storage._validate import check_indices, check_unique
from tabletop_server.storage._writes import _insert_match

__all__ = ["RematchStore"]


class RematchStore(StoreBase):
    """Rematches (part of ``Store``)."""

    def create_rematch(
        self,
        previous_id: str,
        match: NewMatch,
        seats: Sequence[NewSeat],
        actions: Sequence[NewAction] = (),
        *,
        clock: NewClock | None = None,
    ) -> MatchRow | None:
        """Store ``match`` as the rematch of ``previous_id``, in one transaction with its link and
        its ``clock``; None (nothing written) if the match has a rematch already (a concurrent
        call made it)."""
        check_indices(match.id, match.base_index, actions)
        check_unique(match.id, seats, actions)
        stamp = now()

        def create(connection: Connection) -> MatchRow:
            row = _insert_match(connection, match, seats, actions, stamp)
            if clock is not None:
                insert_clock(connection, match.id, clock, stamp)
            connection.execute(
                insert(rematches).values(match_id=previous_id, next_id=match.id, created_at=stamp)
            )
            return row

        try:
            return self._transact(create)
        except (IntegrityError, sqlite3.IntegrityError):
            if self.rematch_links(previous_id)[1] is not None:
                return None
            raise

    def rematch_links(self, match_id: str) -> tuple[str | None, str | None]:
        """``(the match this one is the rematch of, this one's rematch)``, each None if none."""
        return self.links_of([match_id])[match_id]

    def links_of(self, match_ids: Iterable[str]) -> dict[str, tuple[str | None, str | None]]:
        """``rematch_links`` of several matches in one query."""
        ids = list(dict.fromkeys(match_ids))
        links: dict[str, tuple[str | None, str | None]] = dict.fromkeys(ids, (None, None))
        if not ids:
            return links
        query = select(rematches.c.match_id, rematches.c.next_id).where(
            or_(rematches.c.match_id.in_(ids), rematches.c.next_id.in_(ids))
        )
        with self._read() as connection:
            for previous, following in connection.execute(query):
                if previous in links:
                    links[previous] = (links[previous][0], following)
                if following in links:
                    links[following] = (previous, links[following][1])
        return links
