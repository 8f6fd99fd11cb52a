"""Stand-in bots: a bot playing for a seat whose holder is away (part of ``Store``)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from sqlalchemy import Connection, and_, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from tabletop_server.storage._base import StoreBase
from tabletop_server.storage._convert import now
from tabletop_server.storage._rows import JsonObject
from tabletop_server.storage._tables import matches, stand_ins

__all__ = ["StandInRow", "StandInStore"]


@dataclass(frozen=True, slots=True)
class StandInRow:
    """A bot standing in for a seat.

    Attributes:
        player_id: The seat.
        bot: The bot's ``BotSpec`` JSON.
        reason: ``seat`` (its holder asked), ``creator``, or ``timeouts``.
    """

    player_id: str
    bot: JsonObject
    reason: str


class StandInStore(StoreBase):
    """Bots standing in for seats (part of ``Store``)."""

    def stand_ins(self, match_id: str) -> list[StandInRow]:
        """The bots standing in for seats of the match."""
        query = select(stand_ins).where(stand_ins.c.match_id == match_id).order_by(stand_ins.c.player_id)
        with self._read() as connection:
            rows = connection.execute(query).mappings().all()
        return [StandInRow(str(row["player_id"]), dict(row["bot"]), str(row["reason"])) for row in rows]

    def put_stand_in(self, match_id: str, player_id: str, bot: JsonObject, reason: str) -> bool:
        """A bot takes the seat over (and the match is marked as having bots, so they are woken).

        Returns:
            False if a bot stands in for the seat already.
        """

        def work(connection: Connection) -> None:
            connection.execute(
                insert(stand_ins).values(
                    match_id=match_id, player_id=player_id, bot=bot, reason=reason, created_at=now()
                )
            )
            connection.execute(update(matches).where(matches.c.id == match_id).values(has_bots=True))

        try:
            self._transact(work)
        except (IntegrityError, sqlite3.IntegrityError):
            return False
        return True

    def remove_stand_in(self, match_id: str, player_id: str) -> bool:
        """The seat's holder takes it back. Returns False if no bot stood in for it."""

        def work(connection: Connection) -> int:
            result = connection.execute(
                delete(stand_ins).where(
                    and_(stand_ins.c.match_id == match_id, stand_ins.c.player_id == player_id)
                )
            )
            return int(result.rowcount)

        return self._transact(work) == 1
