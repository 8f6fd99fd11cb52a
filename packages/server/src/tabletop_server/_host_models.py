"""Request and response bodies of notifications, rematch, history and provably fair chance."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field, JsonValue
from tabletop import Model

__all__ = [
    "Deliveries",
    "Delivery",
    "Fairness",
    "FullLogPage",
    "HistoryView",
    "RematchLinks",
    "RematchResult",
    "Verification",
    "Webhook",
    "WebhookCreated",
    "WebhookRequest",
]


class WebhookRequest(Model):
    """Where to send the seat's notifications."""

    url: str = Field(max_length=2000, pattern=r"^https?://[^\s]+$")
    """An ``http://`` or ``https://`` URL that accepts ``POST`` of a JSON event."""


class Webhook(Model):
    """A seat's registered webhook (its secret is never shown again)."""

    id: str
    """The webhook's id."""
    player_id: str
    """The seat it notifies."""
    url: str
    """Where events are sent."""
    created_at: datetime
    """When it was registered."""


class WebhookCreated(Webhook):
    """A webhook just registered, with the secret that signs its events (returned once)."""

    secret: str
    """The HMAC-SHA256 key of the ``Tabletop-Signature`` header: keep it; it is shown only now."""


class Delivery(Model):
    """One event for the seat's webhook and how its delivery stands."""

    event_id: str
    """The event's id: the same at every attempt (deduplicate by it)."""
    type: Literal["your-turn", "match-finished", "clock-low"]
    """What happened."""
    index: int
    """The match's action count when it happened."""
    created_at: datetime
    """When it happened."""
    status: Literal["pending", "delivered", "failed"]
    """``pending`` (not yet answered with a 2xx: retried with backoff), ``delivered`` or ``failed``
    (every attempt failed)."""
    attempts: int
    """Attempts started so far."""
    next_attempt_at: datetime
    """When a pending delivery is (re)tried."""
    last_error: str | None
    """What went wrong at the last failed attempt (``HTTP 500``, a timeout, ...)."""


class Deliveries(Model):
    """The seat's deliveries, newest first."""

    deliveries: list[Delivery]
    """At most 100."""


class Fairness(Model):
    """The commitment to the match's secret chance key, and the key once the match is over."""

    commitment: str | None
    """``sha256("tabletop-commitment-v1:" + match id + ":" + key)`` as hex, published at creation;
    null for a match stored without a key."""
    key: str | None
    """The secret PRNG key (32 hex digits): null until the match is finished or ended."""
    seed: int | None
    """The match's seed: null until the match is finished or ended."""


class RematchLinks(Model):
    """The match's place in a chain of rematches."""

    previous: str | None
    """The finished match this one is the rematch of."""
    next: str | None
    """The rematch of this match, once someone asked for it."""


class RematchResult(Model):
    """The rematch, and the caller's seat in it."""

    match: dict[str, JsonValue]
    """The rematch's ``MatchInfo``."""
    player_id: str
    """The caller's seat (the same as in the finished match)."""
    token: str
    """The seat's token in the rematch (returned once)."""


class HistoryView(Model):
    """A perspective's view of a match as it was after its first ``index`` actions."""

    match_id: str
    """The match."""
    player_id: str | None
    """The seat whose view it is; null for a spectator's."""
    index: int
    """The number of actions the view is after."""
    head: int
    """The match's action count now."""
    status: str
    """The match's status now."""
    view: dict[str, JsonValue]
    """The projected state after ``index`` actions."""
    actions: list[JsonValue]
    """The projected actions ``0 .. index - 1`` (from the replay base)."""


class Verification(Model):
    """What replaying a finished match's public record with its revealed key found."""

    verified: bool
    """True when every check passed."""
    problems: list[str]
    """Each check that failed (the key before the end, a commitment mismatch, an action of the full
    log that differs from the replay, an action of the spectator's log that is not the full log's
    projection, a final state that differs)."""
    actions: int
    """Actions of the full log replayed and compared."""
    outcomes: int
    """Of them, actions with recorded outcomes (a roll's face, a draw)."""
    hidden: int
    """Of them, actions with parts hidden from spectators during the match (a sealed bid, a dealt
    card), checked in full, and their projection compared with the spectator's log."""


class FullLogPage(Model):
    """A slice of a finished or ended match's log as recorded: every action in full, the parts
    hidden from seats and spectators during the match included."""

    actions: list[dict[str, JsonValue]]
    """Actions with index above ``after``, in order, unprojected: at most ``limit`` of them."""
    index: int
    """The number of recorded actions."""
    next_after: int | None = None
    """Pass as ``after`` to read the next page; null when this page reaches the last action."""
