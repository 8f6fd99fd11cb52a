"""Seat claims and single-use stream tokens: compare-and-set updates, one winner per race."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import replace
from datetime import timedelta

import orjson
from sqlalchemy import ColumnElement, Connection, and_, bindparam, delete, exists, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from tabletop_server.storage._access import (
    ENDED,
    AccessStore,
    check_claim,
    find_record,
    record_key,
    same_request,
)
from tabletop_server.storage._clock_writes import ClaimClock, clock_seat_taken
from tabletop_server.storage._convert import now, seat_row
from tabletop_server.storage._errors import (
    IdempotencyKeyReusedError,
    IdempotentRetryError,
    InvalidStreamTokenError,
    SeatIsBotError,
    SeatNotHeldError,
    SeatTakenError,
    UnknownMatchError,
    UnknownSeatError,
)
from tabletop_server.storage._notify import notify_change
from tabletop_server.storage._rows import IdempotencyRecord, NewIdempotencyKey, SeatRow, StreamGrant
from tabletop_server.storage._tables import idempotency_keys, matches, seats, stream_tokens
from tabletop_server.storage._tokens import hash_token, new_token, same_hash

__all__ = ["SeatStore"]


class SeatStore(AccessStore):
    """Seats and stream tokens (part of ``Store``)."""

    def get_seats(self, match_id: str) -> list[SeatRow]:
        """The match's seats in seating order (empty if there is no such match)."""
        with self._read() as connection:
            return _seats(connection, match_id)

    def seats_of(self, match_ids: Iterable[str]) -> dict[str, list[SeatRow]]:
        """The seats of several matches (e.g. a listing), keyed by match id, in seating order."""
        ids = list(dict.fromkeys(match_ids))
        found: dict[str, list[SeatRow]] = {match_id: [] for match_id in ids}
        if not ids:
            return found
        query = select(seats).where(seats.c.match_id.in_(ids)).order_by(seats.c.match_id, seats.c.position)
        with self._read() as connection:
            for row in connection.execute(query).mappings():
                found[row["match_id"]].append(seat_row(row))
        return found

    def find_seat(self, match_id: str, token: str) -> SeatRow | None:
        """The seat ``token`` holds in the match, or None (hashes compared in constant time)."""
        for seat in self.get_seats(match_id):
            if same_hash(token, seat.token_hash):
                return seat
        return None

    def claim_seat(
        self,
        match_id: str,
        player_id: str,
        token_hash: str,
        *,
        name: str | None = None,
        credential_hash: str | None = None,
        idempotency: NewIdempotencyKey | None = None,
        clock: ClaimClock = "unknown",
        vouched: bool = False,
    ) -> SeatRow:
        """Give a free human seat to the token hashing to ``token_hash`` (one winner per race).

        Args:
            match_id: The match.
            player_id: The seat.
            token_hash: ``hash_token`` of the new seat token (the token itself is never stored).
            name: A new display name, or None to keep the seat's.
            credential_hash: ``hash_token`` of the invite secret or creator token sent, if any
                (a private match's seat needs one).
            idempotency: The client's key, recorded with the claim. A retry with the same key
                gives the seat the new ``token_hash`` instead (the previous token stops working),
                if the claim's token still holds it.
            clock: What the claim does to the match's clock, in its transaction (a clock the
                caller does not know falls due now, so a keeper starts the seat if it waits).
            vouched: The caller checked the claimant's right to the seat (a rematch's seat
                holder, by their token of the match before): no credential is needed, whatever
                the match's visibility.

        Raises:
            UnknownMatchError: No such match.
            UnknownSeatError: The match has no such seat.
            MatchEndedError: The match was ended.
            SeatIsBotError: The seat is a bot's.
            SeatTakenError: Someone holds the seat already.
            InviteRequiredError: A private match's seat, without an invite.
            InvalidInviteError: An invite that is neither the seat's nor the creator token.
            IdempotencyKeyReusedError: The key answered another claim.
            IdempotentRetryError: A concurrent claim recorded the same key first.
        """
        params = {"seat_match": match_id, "seat_player": player_id, "new_hash": token_hash, "new_name": name}
        key = (name is not None, credential_hash is None and not vouched)  # (else checked in the claim)

        def claim(connection: Connection) -> SeatRow | None:
            if idempotency is not None:
                record = find_record(connection, idempotency.scope, idempotency.key, lock=True)
                if record is not None:
                    same_request(record, idempotency)
                    return _reissue(connection, match_id, player_id, record, token_hash)
            if credential_hash is not None:
                check_claim(connection, match_id, player_id, credential_hash)
            seat = _claim(connection)
            if seat is None:  # says why (as a claim with the check first would have)
                if not vouched:
                    check_claim(connection, match_id, player_id, credential_hash)
                raise _why_not_free(connection, match_id, player_id)
            clock_seat_taken(connection, match_id, now(), clock)  # a clock waiting for this seat starts
            if idempotency is not None:
                record_key(connection, idempotency, match_id, player_id=player_id, token_hash=token_hash)
            return seat

        def _claim(connection: Connection) -> SeatRow | None:
            raw: object = connection.connection.dbapi_connection
            if isinstance(raw, sqlite3.Connection):  # straight to the driver: every join does this
                values = (
                    [token_hash, match_id, player_id]
                    if name is None
                    else [token_hash, name, match_id, player_id]
                )
                found = raw.execute(_SQLITE_CLAIMS[key], values).fetchone()
                if found is None:
                    return None
                m, p, position, seat_name, bot, held, invite = found
                loaded = None if bot is None else orjson.loads(bot)
                return SeatRow(m, p, position, seat_name, loaded, held, invite)
            row = connection.execute(_CLAIMS[key], params).mappings().first()
            return None if row is None else seat_row(row)

        try:
            seat = self._transact(claim)
        except (IntegrityError, sqlite3.IntegrityError):
            if idempotency is None:
                raise
            raise IdempotentRetryError(idempotency.scope) from None
        if seat is None:  # pragma: no cover - the update just found it
            raise UnknownSeatError(match_id, player_id)
        return seat

    def release_seat(self, match_id: str, player_id: str, token: str) -> SeatRow:
        """Free the seat ``token`` holds; the token stops working.

        Raises:
            UnknownMatchError: No such match.
            UnknownSeatError: The match has no such seat.
            SeatIsBotError: The seat is a bot's.
            SeatNotHeldError: ``token`` does not hold the seat.
        """
        token_hash = hash_token(token)

        def release(connection: Connection) -> SeatRow:
            seat = _seat(connection, match_id, player_id)
            if seat is None:
                raise _missing(connection, match_id, player_id)
            if seat.bot is not None:
                raise SeatIsBotError(match_id, player_id)
            if not same_hash(token, seat.token_hash):
                raise SeatNotHeldError(match_id, player_id)
            guard = and_(
                seats.c.match_id == match_id,
                seats.c.player_id == player_id,
                seats.c.token_hash == token_hash,
            )
            if connection.execute(update(seats).where(guard).values(token_hash=None)).rowcount != 1:
                raise SeatNotHeldError(match_id, player_id)  # pragma: no cover - the write lock holds
            if self.dialect == "postgresql":  # every worker's streams of the seat end (at commit)
                head = connection.execute(select(matches.c.head).where(matches.c.id == match_id)).scalar_one()
                notify_change(connection, match_id, head, bot_may_move=False)
            return seat

        seat = self._transact(release)
        return replace(seat, token_hash=None)

    def create_stream_token(
        self,
        match_id: str,
        player_id: str | None,
        *,
        ttl: timedelta = timedelta(seconds=60),
        seat_token_hash: str | None = None,
    ) -> str:
        """Issue a single-use stream token for the match, seen as ``player_id`` (None: spectator).

        Only its hash is stored; the token itself is returned once. A seat's stream token is bound
        to the seat token that minted it (``seat_token_hash``): it is refused once that token no
        longer holds the seat.

        Raises:
            UnknownMatchError: No such match.
        """
        token = new_token()
        row = {
            "token_hash": hash_token(token),
            "match_id": match_id,
            "player_id": player_id,
            "expires_at": now() + ttl,
            "used": False,
            "seat_token_hash": seat_token_hash,
        }

        def issue(connection: Connection) -> None:
            if connection.execute(select(matches.c.id).where(matches.c.id == match_id)).first() is None:
                raise UnknownMatchError(match_id)
            connection.execute(insert(stream_tokens).values(**row))

        self._transact(issue)
        return token

    def check_stream_token(self, match_id: str, token: str) -> StreamGrant:
        """What a stream token would grant now, without using it (one read).

        Raises:
            InvalidStreamTokenError: Unknown, used already, expired, issued for another match, or
                minted by a seat token that no longer holds its seat.
        """
        query = select(stream_tokens.c.player_id, stream_tokens.c.seat_token_hash).where(
            _redeemable(match_id, hash_token(token))
        )
        with self._read() as connection:
            found = connection.execute(query).first()
        if found is None:
            raise InvalidStreamTokenError
        return StreamGrant(match_id=match_id, player_id=found[0], seat_token_hash=found[1])

    def redeem_stream_token(self, match_id: str, token: str) -> StreamGrant:
        """Use a stream token: valid once, before it expires, for its own match only, while the
        seat token that minted it still holds its seat.

        Raises:
            InvalidStreamTokenError: Unknown, used already, expired, issued for another match, or
                minted by a seat token that no longer holds its seat.
        """
        token_hash = hash_token(token)
        guard = _redeemable(match_id, token_hash)

        def redeem(connection: Connection) -> tuple[str | None, str | None]:
            if connection.execute(update(stream_tokens).where(guard).values(used=True)).rowcount != 1:
                raise InvalidStreamTokenError
            found = connection.execute(
                select(stream_tokens.c.player_id, stream_tokens.c.seat_token_hash).where(
                    stream_tokens.c.token_hash == token_hash
                )
            ).one()
            return found[0], found[1]

        player_id, seat_hash = self._transact(redeem)
        return StreamGrant(match_id=match_id, player_id=player_id, seat_token_hash=seat_hash)

    def purge_stream_tokens(self) -> int:
        """Delete used and expired stream tokens; returns how many."""
        stale = or_(stream_tokens.c.used.is_(True), stream_tokens.c.expires_at <= now())
        return self._transact(
            lambda connection: connection.execute(delete(stream_tokens).where(stale)).rowcount
        )


def _redeemable(match_id: str, token_hash: str) -> ColumnElement[bool]:
    """An unused, unexpired stream token of the match whose seat token (if any) holds its seat."""
    holds = exists().where(
        seats.c.match_id == stream_tokens.c.match_id,
        seats.c.player_id == stream_tokens.c.player_id,
        seats.c.token_hash == stream_tokens.c.seat_token_hash,
    )
    return and_(
        stream_tokens.c.token_hash == token_hash,
        stream_tokens.c.match_id == match_id,
        stream_tokens.c.used.is_(False),
        stream_tokens.c.expires_at > now(),
        or_(stream_tokens.c.player_id.is_(None), holds),
    )


_SELECT_SEATS = select(seats).where(seats.c.match_id == bindparam("match_id")).order_by(seats.c.position)
_SELECT_SEAT = select(seats).where(
    seats.c.match_id == bindparam("match_id"), seats.c.player_id == bindparam("player_id")
)
_FREE = and_(  # (an update's parameters may not share a column's name)
    seats.c.match_id == bindparam("seat_match"),
    seats.c.player_id == bindparam("seat_player"),
    seats.c.token_hash.is_(None),
    seats.c.bot.is_(None),
)
_OPEN = (  # a public match that was not ended: a claim without a credential may take its seats
    exists()
    .where(matches.c.id == seats.c.match_id, matches.c.status != ENDED, matches.c.visibility == "public")
    .correlate(seats)
)
_CLAIMS = {
    (named, open_only): update(seats)
    .where(_FREE, *([_OPEN] if open_only else []))
    .values(token_hash=bindparam("new_hash"), **({"name": bindparam("new_name")} if named else {}))
    .returning(*seats.c)
    for named in (False, True)
    for open_only in (False, True)
}
"""A seat claim: one statement that takes the seat if it is free and returns it; by whether it
names the seat, and whether it also checks the match's access (a claim without a credential)."""
_SQLITE_OPEN = (
    " AND EXISTS (SELECT 1 FROM matches WHERE matches.id = seats.match_id"
    f" AND matches.status != '{ENDED}' AND matches.visibility = 'public')"
)
_SQLITE_RETURNING = " RETURNING match_id, player_id, position, name, bot, token_hash, invite_hash"
_SQLITE_FREE = " WHERE match_id = ? AND player_id = ? AND token_hash IS NULL AND bot IS NULL"
_SQLITE_CLAIMS = {
    (named, open_only): (
        "UPDATE seats SET token_hash = ?, name = ?" if named else "UPDATE seats SET token_hash = ?"
    )
    + _SQLITE_FREE
    + (_SQLITE_OPEN if open_only else "")
    + _SQLITE_RETURNING
    for named in (False, True)
    for open_only in (False, True)
}


def _reissue(
    connection: Connection, match_id: str, player_id: str, record: IdempotencyRecord, token_hash: str
) -> SeatRow:
    """A retried claim: the seat the first claim took gets ``token_hash`` (the old token stops
    working), if that claim's token still holds it."""
    if record.match_id != match_id or record.player_id != player_id or record.token_hash is None:
        raise IdempotencyKeyReusedError("Idempotency-Key")  # pragma: no cover - the scope names both
    guard = and_(
        seats.c.match_id == match_id, seats.c.player_id == player_id, seats.c.token_hash == record.token_hash
    )
    row = connection.execute(update(seats).where(guard).values(token_hash=token_hash).returning(*seats.c))
    found = row.mappings().first()
    if found is None:
        raise SeatTakenError(match_id, player_id)
    keyed = and_(idempotency_keys.c.scope == record.scope, idempotency_keys.c.key == record.key)
    connection.execute(update(idempotency_keys).where(keyed).values(token_hash=token_hash))
    return seat_row(found)


def _seats(connection: Connection, match_id: str) -> list[SeatRow]:
    return [seat_row(row) for row in connection.execute(_SELECT_SEATS, {"match_id": match_id}).mappings()]


def _seat(connection: Connection, match_id: str, player_id: str) -> SeatRow | None:
    params = {"match_id": match_id, "player_id": player_id}
    row = connection.execute(_SELECT_SEAT, params).mappings().first()
    return None if row is None else seat_row(row)


def _missing(connection: Connection, match_id: str, player_id: str) -> UnknownMatchError | UnknownSeatError:
    if connection.execute(select(matches.c.id).where(matches.c.id == match_id)).first() is None:
        return UnknownMatchError(match_id)
    return UnknownSeatError(match_id, player_id)


def _why_not_free(
    connection: Connection, match_id: str, player_id: str
) -> UnknownMatchError | UnknownSeatError | SeatIsBotError | SeatTakenError:
    seat = _seat(connection, match_id, player_id)
    if seat is None:
        return _missing(connection, match_id, player_id)
    if seat.bot is not None:
        return SeatIsBotError(match_id, player_id)
    return SeatTakenError(match_id, player_id)
