"""Database rows to the store's dataclasses and back."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import RowMapping

from tabletop_server.storage._rows import ActionRow, JsonObject, MatchRow, NewAction, SeatRow

__all__ = [
    "action_row",
    "action_values",
    "match_row",
    "match_values",
    "now",
    "seat_row",
    "sqlite_time",
    "utc",
]


def now() -> datetime:
    """The current time, UTC."""
    return datetime.now(UTC)


def utc(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime (SQLite hands back naive ones)."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"
"""How SQLAlchemy stores a ``DateTime`` in SQLite (UTC, read back as naive and made aware)."""

_last_time: tuple[datetime, str] = (datetime.min, datetime.min.strftime(SQLITE_TIME))


def sqlite_time(value: datetime) -> str:
    """``value`` as SQLite stores it (see ``SQLITE_TIME``). A write stamps its match, actions and
    outbox rows with one time: the last one's text is kept."""
    global _last_time  # one entry, replaced whole (threads read either the old or the new)
    last = _last_time
    if last[0] is value:
        return last[1]
    # ``isoformat`` is ``strftime(SQLITE_TIME)`` at half the cost, past its offset and for 4-digit years
    text = value.isoformat(" ", "microseconds")[:26] if value.year >= 1000 else value.strftime(SQLITE_TIME)
    _last_time = (value, text)
    return text


def _object(value: object) -> JsonObject | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        msg = f"stored JSON is a {type(value).__name__}, not an object"
        raise TypeError(msg)
    return value


def match_row(row: RowMapping) -> MatchRow:
    """A ``matches`` row as a ``MatchRow``."""
    return MatchRow(
        id=row["id"],
        game=row["game"],
        logic_version=row["logic_version"],
        config=_object(row["config"]) or {},
        seed=row["seed"],
        prng_key=row["prng_key"],
        status=row["status"],
        head=row["head"],
        revision=row["revision"],
        checksum=row["checksum"],
        state_json=row["state"],
        result=row["result"],
        winners=tuple(row["winners"] or ()),
        parent_id=row["parent_id"],
        parent_index=row["parent_index"],
        base_state_json=row["base_state"],
        base_index=row["base_index"],
        has_bots=bool(row["has_bots"]),
        created_at=utc(row["created_at"]),
        updated_at=utc(row["updated_at"]),
        migrated_from=row["migrated_from"],
        migrated_at=None if row["migrated_at"] is None else utc(row["migrated_at"]),
        creator_hash=row["creator_hash"],
        visibility=row["visibility"],
        webhooks=bool(row.get("webhooks", True)),
    )


def seat_row(row: RowMapping) -> SeatRow:
    """A ``seats`` row as a ``SeatRow``."""
    return SeatRow(
        match_id=row["match_id"],
        player_id=row["player_id"],
        position=row["position"],
        name=row["name"],
        bot=_object(row["bot"]),
        token_hash=row["token_hash"],
        invite_hash=row["invite_hash"],
    )


def action_row(row: RowMapping) -> ActionRow:
    """An ``actions`` row as an ``ActionRow``."""
    return ActionRow(
        match_id=row["match_id"],
        index=row["index"],
        action_id=row["action_id"],
        submission_id=row["submission_id"],
        player_id=row["player_id"],
        type=row["type"],
        source=row["source"],
        reveals_info=bool(row["reveals_info"]),
        json=row["action"],
        created_at=utc(row["created_at"]),
    )


def action_values(match_id: str, action: NewAction, created_at: datetime) -> dict[str, object]:
    """The ``actions`` row of a ``NewAction``."""
    return {
        "match_id": match_id,
        "index": action.index,
        "action_id": action.action_id,
        "submission_id": action.submission_id,
        "player_id": action.player_id,
        "type": action.type,
        "source": action.source,
        "reveals_info": action.reveals_info,
        "action": action.json,
        "created_at": created_at,
    }


def match_values(match: MatchRow) -> dict[str, object]:
    """The ``matches`` row of a ``MatchRow``."""
    return {
        "id": match.id,
        "game": match.game,
        "logic_version": match.logic_version,
        "config": match.config,
        "seed": match.seed,
        "prng_key": match.prng_key,
        "status": match.status,
        "head": match.head,
        "revision": match.revision,
        "checksum": match.checksum,
        "state": match.state_json,
        "result": match.result,
        "winners": list(match.winners),
        "parent_id": match.parent_id,
        "parent_index": match.parent_index,
        "base_state": match.base_state_json,
        "base_index": match.base_index,
        "has_bots": match.has_bots,
        "created_at": match.created_at,
        "updated_at": match.updated_at,
        "migrated_from": match.migrated_from,
        "migrated_at": match.migrated_at,
        "creator_hash": match.creator_hash,
        "visibility": match.visibility,
    }
