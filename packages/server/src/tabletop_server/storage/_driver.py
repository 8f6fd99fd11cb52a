"""SQLite's driver, straight: the statements of the hot paths as SQL prepared once, and their rows.

Every action's compare-and-set and insert, every match's creation and the read behind every
view go to ``sqlite3`` directly on SQLite: the statements SQLAlchemy would emit, without building
and compiling them per call, with the values as SQLAlchemy stores them (JSON text, times as
``SQLITE_TIME`` text, booleans as 0/1). PostgreSQL runs the same statements through SQLAlchemy.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

import orjson
from sqlalchemy import Connection

from tabletop_server.storage._convert import sqlite_time
from tabletop_server.storage._errors import UnknownMatchError
from tabletop_server.storage._rows import MatchRow, SeatRow

__all__ = [
    "_SQLITE_ADVANCE",
    "_SQLITE_HELD",
    "_SQLITE_INSERT_ACTIONS",
    "_SQLITE_INSERT_MATCH",
    "_SQLITE_INSERT_SEATS",
    "_SQLITE_UNWATCHED",
    "_sqlite",
    "_sqlite_match_and_seats",
    "_sqlite_match_values",
    "_sqlite_time",
]


_SQLITE_ADVANCE = (
    "UPDATE matches SET head = ?, revision = ?, state = ?, checksum = ?, status = ?, result = ?, "
    "winners = ?, updated_at = ? WHERE matches.id = ? AND matches.revision = ?"
)
_SQLITE_HELD = (
    " AND EXISTS (SELECT 1 FROM seats WHERE seats.match_id = matches.id"
    " AND seats.player_id = ? AND seats.token_hash = ?)"
)
_SQLITE_UNWATCHED = " AND NOT EXISTS (SELECT 1 FROM webhooks WHERE webhooks.match_id = matches.id)"
_SQLITE_INSERT_ACTIONS = (
    'INSERT INTO actions (match_id, "index", action_id, submission_id, player_id, type, source, '
    "reveals_info, action, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_SQLITE_INSERT_MATCH = (
    "INSERT INTO matches (id, game, logic_version, config, seed, prng_key, status, head, revision, checksum, "
    "state, result, winners, parent_id, parent_index, base_state, base_index, has_bots, created_at, "
    "updated_at, migrated_from, migrated_at, creator_hash, visibility) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_SQLITE_INSERT_SEATS = (
    "INSERT INTO seats (match_id, player_id, position, name, bot, token_hash, invite_hash) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)


def _sqlite_match_values(row: MatchRow) -> tuple[object, ...]:
    """``match_values`` as SQLite's driver takes them (JSON text, time text, 0/1), in
    ``_SQLITE_INSERT_MATCH``'s order."""
    return (
        row.id,
        row.game,
        row.logic_version,
        orjson.dumps(row.config).decode(),
        row.seed,
        row.prng_key,
        row.status,
        row.head,
        row.revision,
        row.checksum,
        row.state_json,
        row.result,
        orjson.dumps(list(row.winners)).decode(),
        row.parent_id,
        row.parent_index,
        row.base_state_json,
        row.base_index,
        int(row.has_bots),
        sqlite_time(row.created_at),
        sqlite_time(row.updated_at),
        row.migrated_from,
        None if row.migrated_at is None else sqlite_time(row.migrated_at),
        row.creator_hash,
        row.visibility,
    )


_SQLITE_MATCH = (
    "SELECT id, game, logic_version, config, seed, prng_key, status, head, revision, checksum, state, "
    "result, winners, parent_id, parent_index, base_state, base_index, has_bots, created_at, updated_at, "
    "migrated_from, migrated_at, creator_hash, visibility, "
    "EXISTS (SELECT 1 FROM webhooks WHERE webhooks.match_id = matches.id) FROM matches WHERE id = ?"
)
_SQLITE_SEATS = (
    "SELECT match_id, player_id, position, name, bot, token_hash, invite_hash FROM seats WHERE match_id = ? "
    "ORDER BY position"
)


def _sqlite_match_and_seats(connection: Connection, match_id: str) -> tuple[MatchRow, list[SeatRow]] | None:
    """SQLite: the match and its seats, read straight from the driver (the read of every view and
    every stale cache entry); None on another database."""
    raw = _sqlite(connection)
    if raw is None:
        return None
    found = raw.execute(_SQLITE_MATCH, (match_id,)).fetchone()
    if found is None:
        raise UnknownMatchError(match_id)
    (id_, game, version, config, seed, key, status, head, revision, checksum, state, result, winners) = found[
        :13
    ]
    parent_id, parent_index, base_state, base_index, has_bots, created_at, updated_at = found[13:20]
    migrated_from, migrated_at, creator_hash, visibility, has_webhooks = found[20:]
    config_value = orjson.loads(config)
    if not isinstance(config_value, dict):
        msg = f"stored JSON is a {type(config_value).__name__}, not an object"
        raise TypeError(msg)
    row = MatchRow(
        id=id_,
        game=game,
        logic_version=version,
        config=config_value,
        seed=seed,
        prng_key=key,
        status=status,
        head=head,
        revision=revision,
        checksum=checksum,
        state_json=state,
        result=result,
        winners=tuple(orjson.loads(winners) or ()),
        parent_id=parent_id,
        parent_index=parent_index,
        base_state_json=base_state,
        base_index=base_index,
        has_bots=bool(has_bots),
        created_at=_sqlite_datetime(created_at),
        updated_at=_sqlite_datetime(updated_at),
        migrated_from=migrated_from,
        migrated_at=None if migrated_at is None else _sqlite_datetime(migrated_at),
        creator_hash=creator_hash,
        visibility=visibility,
        webhooks=bool(has_webhooks),
    )
    seat_rows = [
        SeatRow(m, p, position, name, None if bot is None else orjson.loads(bot), token_hash, invite)
        for m, p, position, name, bot, token_hash, invite in raw.execute(_SQLITE_SEATS, (match_id,))
    ]
    return row, seat_rows


def _sqlite_datetime(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def _sqlite(connection: Connection) -> sqlite3.Connection | None:
    """The driver connection under ``connection`` if it is SQLite's (the fast path), else None."""
    raw: object = connection.connection.dbapi_connection
    return raw if isinstance(raw, sqlite3.Connection) else None


def _sqlite_time(value: object) -> str:
    assert isinstance(value, datetime)
    return sqlite_time(value)
