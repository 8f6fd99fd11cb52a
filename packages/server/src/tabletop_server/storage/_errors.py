"""Typed storage errors, each with a stable kebab-case ``code``."""

from __future__ import annotations

__all__ = [
    "DuplicateActionIdError",
    "DuplicateMatchError",
    "HeadMovedError",
    "IdempotencyKeyReusedError",
    "IdempotentRetryError",
    "IndexOutOfRangeError",
    "InvalidInviteError",
    "InvalidStreamTokenError",
    "InviteRequiredError",
    "MatchEndedError",
    "MatchFinishedError",
    "SeatIsBotError",
    "SeatNotHeldError",
    "SeatTakenError",
    "StorageError",
    "StorageFullError",
    "StorageUnavailableError",
    "UnknownMatchError",
    "UnknownSeatError",
]


class StorageError(Exception):
    """Base of every storage error.

    Attributes:
        code: Stable kebab-case code (the HTTP layer may pass it through).
        message: Human-readable explanation (never contains a secret).
    """

    code = "storage-error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class UnknownMatchError(StorageError):
    """No match has this id."""

    code = "unknown-match"

    def __init__(self, match_id: str) -> None:
        super().__init__(f"no match {match_id!r}")
        self.match_id = match_id


class DuplicateMatchError(StorageError):
    """A match with this id exists already."""

    code = "match-exists"

    def __init__(self, match_id: str) -> None:
        super().__init__(f"a match {match_id!r} exists already")
        self.match_id = match_id


class HeadMovedError(StorageError):
    """The match changed since it was read (the compare-and-set failed).

    The caller re-reads the match and re-runs the engine, or answers ``409 stale-index``.

    Attributes:
        match_id: The match.
        expected_head: The head (action count) the caller read.
        head: The head now.
        revision: The match's revision now (it increases on every write, also on undo).
    """

    code = "stale-index"

    def __init__(self, match_id: str, *, expected_head: int, head: int, revision: int) -> None:
        super().__init__(f"match {match_id!r} moved: read at {expected_head} actions, now {head}")
        self.match_id = match_id
        self.expected_head = expected_head
        self.head = head
        self.revision = revision


class DuplicateActionIdError(StorageError):
    """An action with this id is already recorded for the match (a retried submission).

    Attributes:
        match_id: The match.
        action_id: The id that is recorded already; look it up with ``Store.action_by_id``.
    """

    code = "duplicate-action-id"

    def __init__(self, match_id: str, action_id: str) -> None:
        super().__init__(f"action {action_id!r} is already recorded for match {match_id!r}")
        self.match_id = match_id
        self.action_id = action_id


class IndexOutOfRangeError(StorageError):
    """A fork or rewind point outside the match's recorded log."""

    code = "invalid-index"

    def __init__(self, match_id: str, index: int, low: int, high: int) -> None:
        super().__init__(f"index {index} is outside {low}..{high} for match {match_id!r}")
        self.match_id = match_id
        self.index = index


class UnknownSeatError(StorageError):
    """The match has no seat with this player id."""

    code = "unknown-seat"

    def __init__(self, match_id: str, player_id: str) -> None:
        super().__init__(f"match {match_id!r} has no seat {player_id!r}")
        self.match_id = match_id
        self.player_id = player_id


class SeatTakenError(StorageError):
    """The seat is held by someone already."""

    code = "seat-taken"

    def __init__(self, match_id: str, player_id: str) -> None:
        super().__init__(f"seat {player_id!r} of match {match_id!r} is taken")
        self.match_id = match_id
        self.player_id = player_id


class SeatIsBotError(StorageError):
    """The seat is played by a bot and cannot be claimed or released."""

    code = "seat-is-bot"

    def __init__(self, match_id: str, player_id: str) -> None:
        super().__init__(f"seat {player_id!r} of match {match_id!r} is a bot")
        self.match_id = match_id
        self.player_id = player_id


class SeatNotHeldError(StorageError):
    """The token does not hold this seat (releasing a seat needs its token)."""

    code = "invalid-token"

    def __init__(self, match_id: str, player_id: str) -> None:
        super().__init__(f"the token does not hold seat {player_id!r} of match {match_id!r}")
        self.match_id = match_id
        self.player_id = player_id


class InvalidStreamTokenError(StorageError):
    """The stream token is unknown, used already, expired, or for another match."""

    code = "invalid-stream-token"

    def __init__(self) -> None:
        super().__init__("the stream token is unknown, used already, or expired")


class StorageUnavailableError(StorageError):
    """The database cannot be reached or refused the operation (retry later; HTTP 503)."""

    code = "storage-unavailable"


class StorageFullError(StorageUnavailableError):
    """The disk (or the database's size cap) is full: writes fail until space is freed, reads go
    on, and the server recovers by itself once there is room (HTTP 503)."""

    code = "storage-full"


class MatchEndedError(StorageError):
    """The match was ended (by its creator or an operator): it takes no more writes."""

    code = "match-ended"

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id!r} was ended; it takes no more actions or seats")
        self.match_id = match_id


class MatchFinishedError(StorageError):
    """The match is over already (it has a result), so it cannot be ended."""

    code = "game-over"

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id!r} is over already")
        self.match_id = match_id


class InviteRequiredError(StorageError):
    """A private match's seat is claimed only with its invite secret or the creator token."""

    code = "invite-required"

    def __init__(self, match_id: str, player_id: str) -> None:
        super().__init__(f"seat {player_id!r} of match {match_id!r} is private: send its invite")
        self.match_id = match_id
        self.player_id = player_id


class InvalidInviteError(StorageError):
    """The invite secret is neither the seat's nor the creator token."""

    code = "invalid-invite"

    def __init__(self, match_id: str, player_id: str) -> None:
        super().__init__(f"that invite is not valid for seat {player_id!r} of match {match_id!r}")
        self.match_id = match_id
        self.player_id = player_id


class IdempotencyKeyReusedError(StorageError):
    """An idempotency key (or action id) already answered a different request."""

    code = "idempotency-key-reused"

    def __init__(self, what: str) -> None:
        super().__init__(f"this {what} was already used for a different request; use a new one")


class IdempotentRetryError(StorageError):
    """A write carried an idempotency key another write recorded meanwhile (a concurrent retry):
    the caller answers it as a retry."""

    code = "conflict"

    def __init__(self, scope: str) -> None:
        super().__init__(f"a concurrent request with the same idempotency key ({scope}) won")
        self.scope = scope
