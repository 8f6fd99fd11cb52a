"""Change notifications issued inside write transactions (PostgreSQL ``NOTIFY``).

PostgreSQL delivers a ``NOTIFY`` issued in a transaction only when it commits, to every
connection that ``LISTEN``s on the channel: the workers' event hubs
(``tabletop_server.events.PostgresHub``). The payload is small: ``"<match id> <head> <bot>"``,
``bot`` being 1 when the match has bot seats and is in progress. Listeners read what changed
from the action log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import Connection, text

__all__ = ["CHANNEL", "Along", "change_payload", "notify_change", "parse_payload"]

CHANNEL = "tabletop_matches"
"""The ``LISTEN``/``NOTIFY`` channel every worker of one database shares."""

_NOTIFY = text("SELECT pg_notify(:channel, :payload)")

Along = tuple[str, Mapping[str, object]]
"""A data-modifying statement of the same write, run in its notification's statement (one round
trip): its SQL, with ``:named`` parameters unique in the write, and their values."""


def change_payload(match_id: str, head: int, *, bot_may_move: bool) -> str:
    """The payload of a change's notification (``parse_payload`` reads it)."""
    return f"{match_id} {head} {int(bot_may_move)}"


def notify_change(
    connection: Connection, match_id: str, head: int, *, bot_may_move: bool, along: Sequence[Along] = ()
) -> None:
    """Queue the notification of a change in the open write transaction (sent on commit).

    ``along`` are the write's other statements to run in the same one, as ``WITH`` clauses
    (PostgreSQL runs each exactly once, whether or not the query reads it): a write's outbox
    rows and its clock cost no round trip of their own.
    """
    payload = change_payload(match_id, head, bot_may_move=bot_may_move)
    if not along:
        connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload})
        return
    values: dict[str, object] = {"channel": CHANNEL, "payload": payload}
    for _, given in along:
        values.update(given)
    clauses = ", ".join(f"along_{n} AS ({sql})" for n, (sql, _) in enumerate(along))
    connection.execute(text(f"WITH {clauses} SELECT pg_notify(:channel, :payload)"), values)


def parse_payload(payload: str) -> tuple[str, int, bool] | None:
    """``(match id, head, bot may move)`` of a notification payload, or None if it is not one."""
    parts = payload.split(" ")
    if len(parts) != 3 or not parts[1].isdigit() or parts[2] not in ("0", "1"):
        return None
    return parts[0], int(parts[1]), parts[2] == "1"
