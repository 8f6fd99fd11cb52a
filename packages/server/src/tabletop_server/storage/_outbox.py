"""The webhook outbox: a seat's webhook, and its events queued in the transaction that caused them.

An action's write (``Store.append`` with ``events``) inserts one delivery row per event and per
webhook registered by a seat the event is for, in the same transaction as the action: once the
action is committed its notifications are too, and nothing else is needed to send them. Delivery
workers (``tabletop_server._outbox``) claim a due row with a lease (a compare-and-set, so two
workers never send the same attempt; a killed worker's lease runs out and another takes the row
up), send it, and record the outcome: ``delivered``, or a retry at a later time, or ``failed``
after the last attempt.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection, and_, bindparam, delete, insert, literal, or_, select, update

from tabletop_server.storage._base import StoreBase
from tabletop_server.storage._convert import now, sqlite_time, utc
from tabletop_server.storage._notify import Along
from tabletop_server.storage._tables import webhook_deliveries as deliveries
from tabletop_server.storage._tables import webhooks

__all__ = [
    "DeliveryJob",
    "DeliveryRow",
    "OutboxEvent",
    "OutboxStore",
    "WebhookRow",
    "queue_events",
    "queued_along",
]

PENDING, DELIVERED, FAILED = "pending", "delivered", "failed"


@dataclass(frozen=True, slots=True)
class OutboxEvent:
    """An event to notify some seats of (those with a webhook get a delivery).

    Attributes:
        type: ``your-turn``, ``match-finished`` or ``clock-low``.
        player_ids: The seats it is for.
    """

    type: str
    player_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WebhookRow:
    """A seat's registered webhook (its ``secret`` signs every delivery)."""

    id: str
    match_id: str
    player_id: str
    url: str
    secret: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class DeliveryRow:
    """One event for one webhook, and how its delivery stands."""

    webhook_id: str
    event_id: str
    type: str
    match_id: str
    player_id: str
    index: int
    created_at: datetime
    status: str
    attempts: int
    next_attempt_at: datetime
    last_error: str | None
    lease_until: datetime | None = None
    """Until when the worker that claimed the current attempt holds it (None when none does)."""


@dataclass(frozen=True, slots=True)
class DeliveryJob:
    """A claimed delivery: the row, where to send it and the key that signs it."""

    delivery: DeliveryRow
    url: str
    secret: str


_SQLITE_QUEUE = (
    'INSERT INTO webhook_deliveries (webhook_id, event_id, type, match_id, player_id, "index", '
    "created_at, status, attempts, next_attempt_at, lease_until, last_error) "
    "SELECT id, ? || player_id, ?, match_id, player_id, ?, ?, 'pending', 0, ?, NULL, NULL "
    "FROM webhooks WHERE match_id = ? AND player_id IN ({marks})"
)


_QUEUE = insert(deliveries).from_select(
    [
        "webhook_id",
        "event_id",
        "type",
        "match_id",
        "player_id",
        "index",
        "created_at",
        "status",
        "attempts",
        "next_attempt_at",
    ],
    select(
        webhooks.c.id,
        bindparam("prefix", type_=webhooks.c.player_id.type).op("||")(webhooks.c.player_id),
        bindparam("type"),
        webhooks.c.match_id,
        webhooks.c.player_id,
        bindparam("index"),
        bindparam("stamp", type_=deliveries.c.created_at.type),
        literal(PENDING),
        literal(0),
        bindparam("stamp2", type_=deliveries.c.next_attempt_at.type),
    ).where(
        webhooks.c.match_id == bindparam("match_id"),
        webhooks.c.player_id.in_(bindparam("players", expanding=True)),
    ),
)


_PG_QUEUE = (
    'INSERT INTO webhook_deliveries (webhook_id, event_id, type, match_id, player_id, "index", '
    "created_at, status, attempts, next_attempt_at) "
    "SELECT id, CAST(:queue_prefix_{n} AS TEXT) || player_id, :queue_type_{n}, match_id, player_id, "
    f":queue_index, :queue_stamp, '{PENDING}', 0, :queue_stamp "
    "FROM webhooks WHERE match_id = :queue_match AND player_id = ANY(:queue_players_{n})"
)
"""``_QUEUE`` as a clause of a write's notification (``queued_along``)."""


def queued_along(
    match_id: str, revision: int, index: int, events: Sequence[OutboxEvent], stamp: datetime
) -> list[Along]:
    """PostgreSQL: ``queue_events`` as clauses of the write's notification (``notify_change``)."""
    along: list[Along] = []
    for n, event in enumerate(e for e in events if e.player_ids):
        values: dict[str, object] = {
            f"queue_prefix_{n}": event_id(match_id, revision, event.type, ""),
            f"queue_type_{n}": event.type,
            f"queue_players_{n}": list(event.player_ids),
            "queue_index": index,
            "queue_stamp": stamp,
            "queue_match": match_id,
        }
        along.append((_PG_QUEUE.format(n=n), values))
    return along


def event_id(match_id: str, revision: int, event_type: str, player_id: str) -> str:
    """The stable id of an event: the match, the revision the write made, the type and the seat."""
    return f"{match_id}.{revision}.{event_type}.{player_id}"


def queue_events(
    connection: Connection,
    match_id: str,
    revision: int,
    index: int,
    events: Sequence[OutboxEvent],
    stamp: datetime,
) -> None:
    """Queue ``events`` (in the caller's transaction) for the webhooks of the seats they are for.

    ``revision`` is the match's revision after the write (it makes each event id unique and
    stable); ``index`` its head.
    """
    raw: object = connection.connection.dbapi_connection
    for event in events:
        if not event.player_ids:
            continue
        prefix = event_id(match_id, revision, event.type, "")
        if isinstance(raw, sqlite3.Connection):
            when = sqlite_time(stamp)
            sql = _SQLITE_QUEUE.format(marks=", ".join("?" * len(event.player_ids)))
            raw.execute(sql, (prefix, event.type, index, when, when, match_id, *event.player_ids))
            continue
        connection.execute(
            _QUEUE,
            {
                "prefix": prefix,
                "type": event.type,
                "index": index,
                "stamp": stamp,
                "stamp2": stamp,
                "match_id": match_id,
                "players": list(event.player_ids),
            },
        )


def _delivery(row: object) -> DeliveryRow:
    mapping = row._mapping  # type: ignore[attr-defined]
    return DeliveryRow(
        webhook_id=mapping["webhook_id"],
        event_id=mapping["event_id"],
        type=mapping["type"],
        match_id=mapping["match_id"],
        player_id=mapping["player_id"],
        index=mapping["index"],
        created_at=utc(mapping["created_at"]),
        status=mapping["status"],
        attempts=mapping["attempts"],
        next_attempt_at=utc(mapping["next_attempt_at"]),
        last_error=mapping["last_error"],
        lease_until=None if mapping["lease_until"] is None else utc(mapping["lease_until"]),
    )


_DELIVERY_COLUMNS = [
    deliveries.c.webhook_id,
    deliveries.c.event_id,
    deliveries.c.type,
    deliveries.c.match_id,
    deliveries.c.player_id,
    deliveries.c.index,
    deliveries.c.created_at,
    deliveries.c.status,
    deliveries.c.attempts,
    deliveries.c.next_attempt_at,
    deliveries.c.last_error,
    deliveries.c.lease_until,
]


class OutboxStore(StoreBase):
    """Webhooks and their deliveries (part of ``Store``)."""

    def register_webhook(
        self, match_id: str, player_id: str, webhook_id: str, url: str, secret: str
    ) -> WebhookRow:
        """Register the seat's webhook, replacing the one it had (and that one's deliveries)."""
        stamp = now()

        def work(connection: Connection) -> None:
            connection.execute(
                delete(webhooks).where(webhooks.c.match_id == match_id, webhooks.c.player_id == player_id)
            )
            connection.execute(
                insert(webhooks).values(
                    id=webhook_id,
                    match_id=match_id,
                    player_id=player_id,
                    url=url,
                    secret=secret,
                    created_at=stamp,
                )
            )

        self._transact(work)
        return WebhookRow(webhook_id, match_id, player_id, url, secret, stamp)

    def webhook(self, match_id: str, player_id: str) -> WebhookRow | None:
        """The seat's webhook, or None."""
        query = select(webhooks).where(webhooks.c.match_id == match_id, webhooks.c.player_id == player_id)
        with self._read() as connection:
            row = connection.execute(query).mappings().first()
        if row is None:
            return None
        return WebhookRow(
            row["id"], row["match_id"], row["player_id"], row["url"], row["secret"], utc(row["created_at"])
        )

    def remove_webhook(self, match_id: str, player_id: str) -> bool:
        """Remove the seat's webhook (its deliveries go with it); False if it had none."""

        def work(connection: Connection) -> int:
            return connection.execute(
                delete(webhooks).where(webhooks.c.match_id == match_id, webhooks.c.player_id == player_id)
            ).rowcount

        return bool(self._transact(work))

    def queue(self, match_id: str, index: int, revision: int, events: Sequence[OutboxEvent]) -> None:
        """Queue ``events`` in a transaction of their own (for events no action write carries)."""
        stamp = now()
        self._transact(lambda connection: queue_events(connection, match_id, revision, index, events, stamp))

    def deliveries(self, match_id: str, player_id: str, *, limit: int = 100) -> list[DeliveryRow]:
        """The seat's deliveries, newest first."""
        query = (
            select(*_DELIVERY_COLUMNS)
            .where(deliveries.c.match_id == match_id, deliveries.c.player_id == player_id)
            .order_by(deliveries.c.created_at.desc(), deliveries.c.event_id.desc())
            .limit(limit)
        )
        with self._read() as connection:
            return [_delivery(row) for row in connection.execute(query)]

    def due_deliveries(self, *, limit: int, at: datetime | None = None) -> list[tuple[str, str]]:
        """``(webhook id, event id)`` of pending deliveries due ``at`` (default: now) and not
        leased, oldest first."""
        stamp = now() if at is None else at
        query = (
            select(deliveries.c.webhook_id, deliveries.c.event_id)
            .where(
                deliveries.c.status == PENDING,
                deliveries.c.next_attempt_at <= stamp,
                or_(deliveries.c.lease_until.is_(None), deliveries.c.lease_until < stamp),
            )
            .order_by(deliveries.c.next_attempt_at)
            .limit(limit)
        )
        with self._read() as connection:
            return [(str(w), str(e)) for w, e in connection.execute(query)]

    def claim_delivery(
        self, webhook_id: str, event_id: str, lease: timedelta, *, at: datetime | None = None
    ) -> DeliveryJob | None:
        """Lease a delivery due ``at`` (default: now) for one attempt (counted now); None if
        another worker has it.

        The lease is a compare-and-set: of two workers only one claims an attempt. A worker
        killed during the attempt leaves the lease to run out; the row is then due again.
        """
        stamp = now() if at is None else at
        key = and_(deliveries.c.webhook_id == webhook_id, deliveries.c.event_id == event_id)
        claim = (
            update(deliveries)
            .where(
                key,
                deliveries.c.status == PENDING,
                deliveries.c.next_attempt_at <= stamp,
                or_(deliveries.c.lease_until.is_(None), deliveries.c.lease_until < stamp),
            )
            .values(lease_until=stamp + lease, attempts=deliveries.c.attempts + 1)
        )
        query = (
            select(*_DELIVERY_COLUMNS, webhooks.c.url, webhooks.c.secret)
            .join(webhooks, webhooks.c.id == deliveries.c.webhook_id)
            .where(key)
        )

        def work(connection: Connection) -> DeliveryJob | None:
            if connection.execute(claim).rowcount != 1:
                return None
            row = connection.execute(query).first()
            if row is None:  # pragma: no cover - the webhook went in this transaction
                return None
            return DeliveryJob(_delivery(row), row._mapping["url"], row._mapping["secret"])

        return self._transact(work)

    def finish_delivery(
        self, webhook_id: str, event_id: str, *, error: str | None, retry_at: datetime | None
    ) -> None:
        """Record an attempt's outcome: delivered (``error`` None), due again at ``retry_at``, or
        failed for good (``retry_at`` None)."""
        if error is None:
            values: dict[str, object] = {"status": DELIVERED, "lease_until": None, "last_error": None}
        elif retry_at is None:
            values = {"status": FAILED, "lease_until": None, "last_error": error[:500]}
        else:
            values = {"next_attempt_at": retry_at, "lease_until": None, "last_error": error[:500]}
        statement = (
            update(deliveries)
            .where(deliveries.c.webhook_id == webhook_id, deliveries.c.event_id == event_id)
            .values(**values)
        )
        self._transact(lambda connection: connection.execute(statement).rowcount)

    def purge_deliveries(self, before: datetime) -> int:
        """Delete delivered and failed deliveries of events older than ``before``; how many.

        Pending ones are kept whatever their age (they are still to be sent).
        """
        statement = delete(deliveries).where(
            deliveries.c.status.in_([DELIVERED, FAILED]), deliveries.c.created_at < before
        )
        return int(self._transact(lambda connection: connection.execute(statement).rowcount))
