"""Who may change a match: ending it, the creator's and invites' secrets, idempotency records."""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from datetime import timedelta

from sqlalchemy import Connection, and_, bindparam, delete, insert, select, update

from tabletop_server.storage._base import StoreBase
from tabletop_server.storage._convert import now, utc
from tabletop_server.storage._driver import _sqlite
from tabletop_server.storage._errors import (
    IdempotencyKeyReusedError,
    InvalidInviteError,
    InviteRequiredError,
    MatchEndedError,
    MatchFinishedError,
    SeatIsBotError,
    SeatTakenError,
    UnknownMatchError,
    UnknownSeatError,
)
from tabletop_server.storage._notify import notify_change
from tabletop_server.storage._rows import IdempotencyRecord, MatchRow, NewIdempotencyKey
from tabletop_server.storage._tables import idempotency_keys, matches, seats
from tabletop_server.storage._writes import _match

__all__ = ["ENDED", "AccessStore", "check_claim", "find_record", "record_key", "same_request"]

ENDED = "ended"
"""The status of a match its creator or an operator ended: it takes no more writes."""


class AccessStore(StoreBase):
    """Ending matches, rotating secrets and idempotency records (part of ``Store``)."""

    def end_match(self, match_id: str) -> MatchRow:
        """End an unfinished match: its status becomes ``ended`` and every later write is refused
        (``MatchEndedError``); bots stop. Ending an ended match changes nothing.

        Raises:
            UnknownMatchError: No such match.
            MatchFinishedError: The match is over already (it has a result).
        """

        def end(connection: Connection) -> MatchRow:
            row = _match(connection, match_id)
            if row.status == ENDED:
                return row
            if row.status != "in_progress":
                raise MatchFinishedError(match_id)
            stamp = now()
            guard = and_(matches.c.id == match_id, matches.c.revision == row.revision)
            change = {"status": ENDED, "revision": row.revision + 1, "updated_at": stamp}
            if connection.execute(update(matches).where(guard).values(**change)).rowcount != 1:
                raise UnknownMatchError(match_id)  # pragma: no cover - the write lock holds
            if self.dialect == "postgresql":
                notify_change(connection, match_id, row.head, bot_may_move=False)
            return _match(connection, match_id)

        return self._transact(end)

    def rotate_secrets(self, match_id: str, creator_hash: str | None, invites: Mapping[str, str]) -> None:
        """Replace the creator token's hash and the invite hashes of seats (a retried creation
        gets fresh secrets; the old ones stop working)."""

        def rotate(connection: Connection) -> None:
            connection.execute(
                update(matches).where(matches.c.id == match_id).values(creator_hash=creator_hash)
            )
            for player_id, invite_hash in invites.items():
                guard = and_(seats.c.match_id == match_id, seats.c.player_id == player_id)
                connection.execute(update(seats).where(guard).values(invite_hash=invite_hash))

        self._transact(rotate)

    def set_seat_tokens(self, match_id: str, token_hashes: Mapping[str, str]) -> None:
        """Give seats new token hashes (a retried fork's fresh tokens: the old ones stop working)."""

        def assign(connection: Connection) -> None:
            for player_id, token_hash in token_hashes.items():
                guard = and_(
                    seats.c.match_id == match_id, seats.c.player_id == player_id, seats.c.bot.is_(None)
                )
                connection.execute(update(seats).where(guard).values(token_hash=token_hash))

        self._transact(assign)

    def idempotency_record(self, scope: str, key: str) -> IdempotencyRecord | None:
        """The unexpired record of ``key`` in ``scope``, or None."""
        with self._read() as connection:
            return find_record(connection, scope, key)

    def purge_idempotency_keys(self) -> int:
        """Delete expired idempotency records; returns how many."""
        stale = idempotency_keys.c.expires_at <= now()
        return self._transact(
            lambda connection: connection.execute(delete(idempotency_keys).where(stale)).rowcount
        )


def find_record(
    connection: Connection, scope: str, key: str, *, lock: bool = False
) -> IdempotencyRecord | None:
    """The unexpired record of ``key`` in ``scope`` (read in ``connection``'s transaction; with
    ``lock``, locked until it ends, so concurrent retries of one request take turns)."""
    guard = and_(idempotency_keys.c.scope == scope, idempotency_keys.c.key == key)
    query = select(idempotency_keys).where(guard)
    if lock:
        query = query.with_for_update()
    row = connection.execute(query).mappings().first()
    if row is None or utc(row["expires_at"]) <= now():
        return None
    return IdempotencyRecord(
        scope=row["scope"],
        key=row["key"],
        request_hash=row["request_hash"],
        match_id=row["match_id"],
        player_id=row["player_id"],
        token_hash=row["token_hash"],
        expires_at=utc(row["expires_at"]),
    )


def record_key(
    connection: Connection,
    new: NewIdempotencyKey,
    match_id: str,
    *,
    player_id: str | None = None,
    token_hash: str | None = None,
) -> None:
    """Record ``new`` for the write being made in ``connection``'s transaction (a live record of
    the same key makes the insert fail: a concurrent retry). Expired records, this key's
    included, are purged first: an indexed range delete, empty most of the time."""
    stamp = now()
    connection.execute(delete(idempotency_keys).where(idempotency_keys.c.expires_at <= stamp))
    connection.execute(
        insert(idempotency_keys).values(
            scope=new.scope,
            key=new.key,
            request_hash=new.request_hash,
            match_id=match_id,
            player_id=player_id,
            token_hash=token_hash,
            created_at=stamp,
            expires_at=stamp + timedelta(seconds=new.ttl),
        )
    )


def same_request(record: IdempotencyRecord, new: NewIdempotencyKey) -> None:
    """Raise unless ``record`` answered the same request as ``new``."""
    if not hmac.compare_digest(record.request_hash, new.request_hash):
        raise IdempotencyKeyReusedError("Idempotency-Key")


_ACCESS = (
    select(
        matches.c.status,
        matches.c.visibility,
        matches.c.creator_hash,
        seats.c.bot,
        seats.c.token_hash,
        seats.c.invite_hash,
    )
    .select_from(seats.join(matches, matches.c.id == seats.c.match_id))
    .where(seats.c.match_id == bindparam("access_match"), seats.c.player_id == bindparam("access_player"))
)
"""What a claim checks: built once (a statement built per call cost a join more than its query)."""

_SQLITE_ACCESS = (
    "SELECT matches.status, matches.visibility, matches.creator_hash, seats.bot, seats.token_hash, "
    "seats.invite_hash FROM seats JOIN matches ON matches.id = seats.match_id "
    "WHERE seats.match_id = ? AND seats.player_id = ?"
)
"""``_ACCESS`` for SQLite's driver (every join reads it)."""


def check_claim(connection: Connection, match_id: str, player_id: str, credential_hash: str | None) -> None:
    """Raise unless the seat may be claimed now with ``credential_hash`` (the hash of an invite
    secret or of the creator token; None: nothing sent).

    Raises:
        UnknownMatchError: No such match.
        UnknownSeatError: No such seat.
        MatchEndedError: The match was ended.
        SeatIsBotError: A bot plays the seat.
        SeatTakenError: Someone holds the seat.
        InviteRequiredError: A private match and no invite sent.
        InvalidInviteError: An invite that is neither the seat's nor the creator's.
    """
    raw = _sqlite(connection)
    if raw is not None:
        row = raw.execute(_SQLITE_ACCESS, (match_id, player_id)).fetchone()
    else:
        row = connection.execute(_ACCESS, {"access_match": match_id, "access_player": player_id}).first()
    if row is None:
        if connection.execute(select(matches.c.id).where(matches.c.id == match_id)).first() is None:
            raise UnknownMatchError(match_id)
        raise UnknownSeatError(match_id, player_id)
    status, visibility, creator_hash, bot, token_hash, invite_hash = row
    if status == ENDED:
        raise MatchEndedError(match_id)
    if bot is not None:
        raise SeatIsBotError(match_id, player_id)
    if token_hash is not None:
        raise SeatTakenError(match_id, player_id)
    if credential_hash is None:
        if visibility != "public":
            raise InviteRequiredError(match_id, player_id)
        return
    known = [found for found in (invite_hash, creator_hash) if found is not None]
    if not any(hmac.compare_digest(found, credential_hash) for found in known):
        raise InvalidInviteError(match_id, player_id)
