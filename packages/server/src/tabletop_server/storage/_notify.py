"""Change notifications issued inside write transactions (PostgreSQL ``NOTIFY``).

PostgreSQL delivers a ``NOTIFY`` issued in a transaction only when it commits, to every
connection that ``LISTEN``s on the channel: the workers' event hubs
(``tabletop_server.events.PostgresHub``). The payload is small: ``"<match id> <head> <bot>"``,
``bot`` being 1 when the match has bot seats and is in progress. Listeners read what changed
from the action log.
"""

from __future__ import annotations

from sqlalchemy import Connection, text

__all__ = ["CHANNEL", "change_payload", "notify_change", "parse_payload"]

CHANNEL = "tabletop_matches"
"""The ``LISTEN``/``NOTIFY`` channel every worker of one database shares."""

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def change_payload(match_id: str, head: int, *, bot_may_move: bool) -> str:
    """The payload of a change's notification (``parse_payload`` reads it)."""
    return f"{match_id} {head} {int(bot_may_move)}"


def notify_change(connection: Connection, match_id: str, head: int, *, bot_may_move: bool) -> None:
    """Queue the notification of a change in the open write transaction (sent on commit)."""
    payload = change_payload(match_id, head, bot_may_move=bot_may_move)
    connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})


def parse_payload(payload: str) -> tuple[str, int, bool] | None:
    """``(match id, head, bot may move)`` of a notification payload, or None if it is not one."""
    parts = payload.split(" ")
    if len(parts) != 3 or not parts[1].isdigit() or parts[2] not in ("0", "1"):
        return None
    return parts[0], int(parts[1]), parts[2] == "1"
