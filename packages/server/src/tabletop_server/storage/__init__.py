"""The server's storage: matches, seats, action logs and stream tokens in SQL.

SQLAlchemy 2 Core over an embedded SQLite file (the default) or PostgreSQL (psycopg 3).

- ``upgrade(url)`` brings the schema to the newest migration (Alembic; run on server start and
  by ``tabletop db upgrade``); then ``Store(url)`` opens the database.
- Every write of a match is a compare-and-set on its revision: read with ``get_match``, run the
  engine, then ``append(expected, change, actions)``; ``HeadMovedError`` means someone else wrote first
  (re-read and re-run, or answer ``409 stale-index``).
- Undo is ``rewind`` under the same guard; a fork is ``fork_match``.
- On PostgreSQL every write of a match's log issues ``NOTIFY tabletop_matches`` in its
  transaction (``CHANNEL``; payload ``"<match id> <head> <bot>"``, see ``parse_payload``), so
  every worker hears about it once it commits.
- Seat tokens, stream tokens, creator tokens and invite secrets are stored only as
  ``hash_token`` hashes.
- A seat's webhook (``register_webhook``) gets a delivery row for each event an ``append`` is
  given for that seat, in the append's transaction (the outbox, see ``_outbox``).
- ``end_match`` ends a match (status ``ended``: every later write is refused); clients'
  idempotency keys are recorded in the transaction of the write they made.

The default database is ``$TABLETOP_DATA_DIR/tabletop.sqlite3``, or ``./.tabletop/tabletop.sqlite3``
relative to the working directory when the variable is not set; its folder is created on demand.
"""

from tabletop_server.storage._access import ENDED
from tabletop_server.storage._clock_writes import ClaimClock, ClockClaim, ClockWrite, NewClock
from tabletop_server.storage._clocks import ClockRow, TimeoutRow
from tabletop_server.storage._engines import StoreOptions
from tabletop_server.storage._errors import (
    DuplicateActionIdError,
    DuplicateMatchError,
    HeadMovedError,
    IdempotencyKeyReusedError,
    IdempotentRetryError,
    IndexOutOfRangeError,
    InvalidInviteError,
    InvalidStreamTokenError,
    InviteRequiredError,
    MatchEndedError,
    MatchFinishedError,
    SeatIsBotError,
    SeatNotHeldError,
    SeatTakenError,
    StorageError,
    StorageFullError,
    StorageUnavailableError,
    UnknownMatchError,
    UnknownSeatError,
)
from tabletop_server.storage._migrate import current_revision, head_revision, upgrade
from tabletop_server.storage._notify import CHANNEL, notify_change, parse_payload
from tabletop_server.storage._outbox import DeliveryJob, DeliveryRow, OutboxEvent, WebhookRow
from tabletop_server.storage._rows import (
    ActionRow,
    IdempotencyRecord,
    JsonObject,
    MatchRow,
    MatchUpdate,
    NewAction,
    NewIdempotencyKey,
    NewMatch,
    NewSeat,
    SeatRow,
    StreamGrant,
    UndoRow,
)
from tabletop_server.storage._stand_ins import StandInRow
from tabletop_server.storage._store import Store
from tabletop_server.storage._tables import metadata
from tabletop_server.storage._tokens import hash_token, new_match_id, new_token, same_hash
from tabletop_server.storage._url import DATA_DIR_ENV, default_database_url, normalize_url

__all__ = [
    "CHANNEL",
    "DATA_DIR_ENV",
    "ENDED",
    "ActionRow",
    "ClaimClock",
    "ClockClaim",
    "ClockRow",
    "ClockWrite",
    "DeliveryJob",
    "DeliveryRow",
    "DuplicateActionIdError",
    "DuplicateMatchError",
    "HeadMovedError",
    "IdempotencyKeyReusedError",
    "IdempotencyRecord",
    "IdempotentRetryError",
    "IndexOutOfRangeError",
    "InvalidInviteError",
    "InvalidStreamTokenError",
    "InviteRequiredError",
    "JsonObject",
    "MatchEndedError",
    "MatchFinishedError",
    "MatchRow",
    "MatchUpdate",
    "NewAction",
    "NewClock",
    "NewIdempotencyKey",
    "NewMatch",
    "NewSeat",
    "OutboxEvent",
    "SeatIsBotError",
    "SeatNotHeldError",
    "SeatRow",
    "SeatTakenError",
    "StandInRow",
    "StorageError",
    "StorageFullError",
    "StorageUnavailableError",
    "Store",
    "StoreOptions",
    "StreamGrant",
    "TimeoutRow",
    "UndoRow",
    "UnknownMatchError",
    "UnknownSeatError",
    "WebhookRow",
    "current_revision",
    "default_database_url",
    "hash_token",
    "head_revision",
    "metadata",
    "new_match_id",
    "new_token",
    "normalize_url",
    "notify_change",
    "parse_payload",
    "same_hash",
    "upgrade",
]
