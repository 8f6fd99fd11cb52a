"""The statements of the store's writes: the compare-and-set, inserting matches and actions.

The compare-and-set of an action (``_advance``) and the insert of its actions run on every
accepted action, and a match's insert on every creation; on SQLite they go straight to the
driver (``_driver``'s statements); PostgreSQL runs them through SQLAlchemy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

import orjson
from sqlalchemy import Connection, bindparam, exists, insert, select, update

from tabletop_server.storage._convert import action_row, action_values, match_row, match_values, sqlite_time
from tabletop_server.storage._driver import (
    _SQLITE_ADVANCE,
    _SQLITE_HELD,
    _SQLITE_INSERT_ACTIONS,
    _SQLITE_INSERT_MATCH,
    _SQLITE_INSERT_SEATS,
    _SQLITE_UNWATCHED,
    _sqlite,
    _sqlite_match_values,
    _sqlite_time,
)
from tabletop_server.storage._errors import HeadMovedError, UnknownMatchError
from tabletop_server.storage._rows import MatchRow, MatchUpdate, NewAction, NewMatch, NewSeat
from tabletop_server.storage._tables import actions as action_table
from tabletop_server.storage._tables import matches, seats, snapshots, webhooks

__all__ = [
    "_advance",
    "_copy_log",
    "_guard",
    "_insert_actions",
    "_insert_match",
    "_insert_snapshot",
    "_match",
    "_updated",
]


_HAS_WEBHOOKS = exists().where(webhooks.c.match_id == matches.c.id).label("webhooks")
_SELECT_MATCH = select(matches, _HAS_WEBHOOKS).where(matches.c.id == bindparam("match_id"))


def _match(connection: Connection, match_id: str) -> MatchRow:
    row = connection.execute(_SELECT_MATCH, {"match_id": match_id}).mappings().first()
    if row is None:
        raise UnknownMatchError(match_id)
    return match_row(row)


def _guard(connection: Connection, expected: MatchRow) -> None:
    """Raise unless the match is still at ``expected.revision``."""
    query = select(matches.c.head, matches.c.revision).where(matches.c.id == expected.id)
    row = connection.execute(query).first()
    if row is None:
        raise UnknownMatchError(expected.id)
    if row.revision != expected.revision:
        raise HeadMovedError(expected.id, expected_head=expected.head, head=row.head, revision=row.revision)


_INSERT_ACTIONS = insert(action_table)
_INSERT_MATCH = insert(matches)
_INSERT_SEATS = insert(seats)


def _insert_actions(connection: Connection, rows: list[dict[str, object]]) -> None:
    """Insert ``action_values`` rows."""
    raw = _sqlite(connection)
    if raw is None:
        connection.execute(_INSERT_ACTIONS, rows)
        return
    raw.executemany(
        _SQLITE_INSERT_ACTIONS,
        [
            (
                r["match_id"],
                r["index"],
                r["action_id"],
                r["submission_id"],
                r["player_id"],
                r["type"],
                r["source"],
                int(bool(r["reveals_info"])),
                r["action"],
                _sqlite_time(r["created_at"]),
            )
            for r in rows
        ],
    )


_CHANGE = {
    "head": bindparam("new_head"),
    "revision": bindparam("new_revision"),
    "state": bindparam("new_state"),
    "checksum": bindparam("new_checksum"),
    "status": bindparam("new_status"),
    "result": bindparam("new_result"),
    "winners": bindparam("new_winners", type_=matches.c.winners.type),
    "updated_at": bindparam("new_updated_at", type_=matches.c.updated_at.type),
}
_HELD = (
    exists()
    .where(
        seats.c.match_id == bindparam("match_id"),
        seats.c.player_id == bindparam("seat_player"),
        seats.c.token_hash == bindparam("seat_hash"),
    )
    .correlate(matches)
)
_UNWATCHED = ~exists().where(webhooks.c.match_id == matches.c.id).correlate(matches)
_ADVANCE = {
    (held, unwatched): update(matches)
    .where(
        matches.c.id == bindparam("match_id"),
        matches.c.revision == bindparam("expected_revision"),
        *([_HELD] if held else []),
        *([_UNWATCHED] if unwatched else []),
    )
    .values(**_CHANGE)
    for held in (False, True)
    for unwatched in (False, True)
}
"""The compare-and-set, prepared once (cached compilation; the hot path of every action): by
whether it checks that a token holds a seat, and that no seat has a webhook."""


def _advance(
    connection: Connection,
    expected: MatchRow,
    change: MatchUpdate,
    head: int,
    stamp: datetime,
    *,
    seat: tuple[str, str] | None = None,
    unwatched: bool = False,
) -> None:
    """The compare-and-set: move the match to ``head`` only if its revision is unchanged (and,
    with ``seat``, only if that token hash still holds that seat; with ``unwatched``, only if
    no seat has a webhook: the write queues no delivery)."""
    params: dict[str, object] = {
        "match_id": expected.id,
        "expected_revision": expected.revision,
        "new_head": head,
        "new_revision": expected.revision + 1,
        "new_state": change.state_json,
        "new_checksum": change.checksum,
        "new_status": change.status,
        "new_result": change.result,
        "new_winners": list(change.winners),
        "new_updated_at": stamp,
    }
    raw = _sqlite(connection)
    if raw is not None:
        values: tuple[object, ...] = (
            head,
            expected.revision + 1,
            change.state_json,
            change.checksum,
            change.status,
            change.result,
            orjson.dumps(list(change.winners)).decode(),
            sqlite_time(stamp),
            expected.id,
            expected.revision,
        )
        sql = _SQLITE_ADVANCE
        if seat is not None:
            sql += _SQLITE_HELD
            values += seat
        if unwatched:
            sql += _SQLITE_UNWATCHED
        if raw.execute(sql, values).rowcount == 1:
            return
        _guard(connection, expected)  # raises UnknownMatchError or HeadMovedError
        raise HeadMovedError(
            expected.id, expected_head=expected.head, head=expected.head, revision=expected.revision
        )
    if seat is not None:
        params["seat_player"], params["seat_hash"] = seat
    if connection.execute(_ADVANCE[seat is not None, unwatched], params).rowcount != 1:
        _guard(connection, expected)  # raises UnknownMatchError or HeadMovedError
        raise HeadMovedError(
            expected.id, expected_head=expected.head, head=expected.head, revision=expected.revision
        )


def _updated(expected: MatchRow, change: MatchUpdate, head: int, stamp: datetime) -> MatchRow:
    return replace(
        expected,
        head=head,
        revision=expected.revision + 1,
        state_json=change.state_json,
        checksum=change.checksum,
        status=change.status,
        result=change.result,
        winners=tuple(change.winners),
        updated_at=stamp,
    )


def _insert_match(
    connection: Connection,
    match: NewMatch,
    new_seats: Sequence[NewSeat],
    log: Sequence[NewAction],
    stamp: datetime,
) -> MatchRow:
    row = MatchRow(
        id=match.id,
        game=match.game,
        logic_version=match.logic_version,
        config=match.config,
        seed=match.seed,
        prng_key=match.prng_key,
        status=match.status,
        head=match.base_index + len(log),
        revision=0,
        checksum=match.checksum,
        state_json=match.state_json,
        result=match.result,
        winners=tuple(match.winners),
        parent_id=match.parent_id,
        parent_index=match.parent_index,
        base_state_json=match.base_state_json,
        base_index=match.base_index,
        has_bots=any(seat.bot is not None for seat in new_seats),
        created_at=stamp,
        updated_at=stamp,
        creator_hash=match.creator_hash,
        visibility=match.visibility,
        webhooks=False,
    )
    raw = _sqlite(connection)
    if raw is not None:  # straight to the driver: every match's creation does this
        raw.execute(_SQLITE_INSERT_MATCH, _sqlite_match_values(row))
        if new_seats:
            raw.executemany(
                _SQLITE_INSERT_SEATS,
                [
                    (
                        match.id,
                        s.player_id,
                        n,
                        s.name,
                        None if s.bot is None else orjson.dumps(s.bot).decode(),
                        None,
                        s.invite_hash,
                    )
                    for n, s in enumerate(new_seats)
                ],
            )
    else:
        connection.execute(_INSERT_MATCH, match_values(row))
        if new_seats:
            rows = [
                {
                    "match_id": match.id,
                    "player_id": s.player_id,
                    "position": n,
                    "name": s.name,
                    "bot": s.bot,
                    "token_hash": None,
                    "invite_hash": s.invite_hash,
                }
                for n, s in enumerate(new_seats)
            ]
            connection.execute(_INSERT_SEATS, rows)
    if log:
        _insert_actions(connection, [action_values(match.id, a, stamp) for a in log])
    return row


def _copy_log(connection: Connection, match_id: str, start: int, stop: int) -> list[NewAction]:
    query = (
        select(action_table)
        .where(
            action_table.c.match_id == match_id, action_table.c.index >= start, action_table.c.index < stop
        )
        .order_by(action_table.c.index)
    )
    rows = [action_row(row) for row in connection.execute(query).mappings()]
    return [
        NewAction(
            r.index, r.action_id, r.submission_id, r.player_id, r.type, r.source, r.reveals_info, r.json
        )
        for r in rows
    ]


def _insert_snapshot(
    connection: Connection, match_id: str, index: int, state_json: str, stamp: datetime
) -> None:
    connection.execute(
        insert(snapshots).values(match_id=match_id, index=index, state=state_json, created_at=stamp)
    )
