"""The rows the store reads and writes: plain frozen dataclasses, JSON kept as text where large."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import orjson
from pydantic import JsonValue
from tabletop import GameAction

__all__ = [
    "ActionRow",
    "IdempotencyRecord",
    "JsonObject",
    "MatchRow",
    "MatchUpdate",
    "NewAction",
    "NewIdempotencyKey",
    "NewMatch",
    "NewSeat",
    "SeatRow",
    "StreamGrant",
    "UndoRow",
]

JsonObject = dict[str, JsonValue]
"""A JSON object (config, bot settings)."""


@dataclass(frozen=True, slots=True)
class NewSeat:
    """A seat of a match being created.

    Attributes:
        player_id: The seat's player id (``p1``..``pN``).
        name: Display name.
        bot: The bot's settings (e.g. ``{"kind": "mcts", "iterations": 200}``), or None for a
            human seat.
        invite_hash: ``hash_token`` of the seat's invite secret (a human seat of a match created
            with one), or None.
    """

    player_id: str
    name: str
    bot: JsonObject | None = None
    invite_hash: str | None = None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A stored seat.

    Attributes:
        match_id: The match.
        player_id: The seat's player id.
        position: Seating order, from 0.
        name: Display name.
        bot: The bot's settings, or None for a human seat.
        token_hash: ``hash_token`` of the seat token holding it, or None when free (or a bot).
        invite_hash: ``hash_token`` of the seat's invite secret, or None.
    """

    match_id: str
    player_id: str
    position: int
    name: str
    bot: JsonObject | None
    token_hash: str | None
    invite_hash: str | None = None

    @property
    def occupied(self) -> bool:
        """True for a bot seat or a seat held by a token."""
        return self.bot is not None or self.token_hash is not None


@dataclass(frozen=True, slots=True)
class NewAction:
    """One recorded action to store.

    Attributes:
        index: Its index in the match's log (the head before it, plus its position in the batch).
        action_id: The action's id (unique per match: the idempotency key of a client's retry).
        submission_id: Id of the user action whose submission recorded it (the action's own id
            for the submitted action, the submitted action's id for the system actions it caused;
            None for actions recorded at the match's start).
        player_id: The acting player, or None.
        type: The action type.
        source: ``"user"`` or ``"system"``.
        reveals_info: True when it is an undo barrier: it (with the system actions it caused)
            showed some perspective a value hidden from it before, drew a chance outcome, or
            declares ``reveals_info`` (see ``tabletop_server._undo``).
        json: The full recorded action, metadata included, as JSON text (the truth: never
            projected).
    """

    index: int
    action_id: str
    submission_id: str | None
    player_id: str | None
    type: str
    source: str
    reveals_info: bool
    json: str

    @property
    def simultaneous_group_id(self) -> str | None:
        """The recorded action's simultaneous group, if it belongs to one."""
        return _group_of(self.json)

    @classmethod
    def from_action(cls, action: GameAction, submission_id: str | None) -> NewAction:
        """Build the row of an action the engine recorded (its ``index`` must be set).

        Raises:
            ValueError: The action has no index (it was not recorded by the engine).
        """
        if action.index is None:
            msg = f"action {action.id!r} has no index: only recorded actions are stored"
            raise ValueError(msg)
        return cls(
            index=action.index,
            action_id=action.id,
            submission_id=submission_id,
            player_id=action.player_id,
            type=action.type,
            source=action.source.value,
            reveals_info=bool(action.reveals_info),
            json=action.model_dump_json(),
        )


@dataclass(frozen=True, slots=True)
class ActionRow:
    """A stored action: the fields of ``NewAction`` plus where and when it was recorded."""

    match_id: str
    index: int
    action_id: str
    submission_id: str | None
    player_id: str | None
    type: str
    source: str
    reveals_info: bool
    json: str
    created_at: datetime

    @property
    def simultaneous_group_id(self) -> str | None:
        """The recorded action's simultaneous group, if it belongs to one."""
        return _group_of(self.json)


@dataclass(frozen=True, slots=True)
class UndoRow:
    """What the undo rule reads of a stored action: the narrow columns, no JSON to parse.

    Attributes:
        index: Its index in the match's log.
        player_id: The acting player, or None.
        source: ``"user"`` or ``"system"``.
        reveals_info: True when it is an undo barrier.
        simultaneous_group_id: The simultaneous group of a user action, if any (None for a
            system action: the rule never reads it).
    """

    index: int
    player_id: str | None
    source: str
    reveals_info: bool
    simultaneous_group_id: str | None


def _group_of(action_json: str) -> str | None:
    value = orjson.loads(action_json).get("simultaneous_group_id")
    return value if isinstance(value, str) else None


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A match to create.

    Attributes:
        id: The match id (also the ``Game.id`` the engine sees).
        game: The game's entry-point name.
        logic_version: The game's logic version when the match was created.
        config: The game's configuration (its JSON form).
        seed: The 32-bit seed.
        prng_key: The host-only PRNG key (never sent to a client), or None.
        state_json: The current state as JSON text (the full truth, never projected).
        checksum: The state's action checksum.
        status: ``"in_progress"`` or ``"finished"`` (any short string the host uses).
        result: The game's result (``GameResult`` value) once over, else None.
        winners: The winners' player ids.
        parent_id: For a fork, the match it was forked from.
        parent_index: For a fork, the parent's action count at the fork point.
        base_state_json: For a match whose start cannot be rebuilt from the seed (a determinized
            fork of a hidden-information match), the state its log starts from; else None.
        base_index: The index of the first action this match's log holds (0, or the action count
            of ``base_state_json``).
        creator_hash: ``hash_token`` of the creator token (it may end the match and claim any
            seat), or None.
        visibility: ``"public"`` (listed; a free seat is open to anyone) or ``"private"`` (a seat
            is claimed only with its invite secret or the creator token).
    """

    id: str
    game: str
    logic_version: str
    config: JsonObject
    seed: int
    prng_key: str | None
    state_json: str
    checksum: int
    status: str = "in_progress"
    result: str | None = None
    winners: tuple[str, ...] = ()
    parent_id: str | None = None
    parent_index: int | None = None
    base_state_json: str | None = None
    base_index: int = 0
    creator_hash: str | None = None
    visibility: str = "public"


@dataclass(frozen=True, slots=True)
class MatchRow:
    """A stored match, as read at one revision.

    Pass it back as ``expected`` to a write (``Store.append``, ``Store.rewind``): the write
    succeeds only if the match is still at this ``revision``.

    Attributes:
        head: The number of recorded actions (the next action's index).
        revision: Increases by one with every write of the match (append and rewind), so a
            rewind followed by new actions never looks unchanged.
        has_bots: True if any seat is a bot.
        created_at: When the match was created (UTC).
        updated_at: When it was last written (UTC).
        migrated_from: The logic version the match ran before its last migration to
            ``logic_version``, or None if it was never migrated. A migrated match's replay base
            (``base_state_json``, ``base_index``) is the migrated state: the actions before
            ``base_index`` are history, never replayed under the new rules.
        migrated_at: When the last migration was stored (UTC), or None.
        creator_hash: As ``NewMatch``.
        visibility: As ``NewMatch``.
        webhooks: False only if the read saw no seat's webhook (True where a read does not
            look: the listings). A write from a row that saw none queues no delivery, and its
            compare-and-set also checks that there is still none.

    The other attributes are those of ``NewMatch``.
    """

    id: str
    game: str
    logic_version: str
    config: JsonObject
    seed: int
    prng_key: str | None
    status: str
    head: int
    revision: int
    checksum: int
    state_json: str
    result: str | None
    winners: tuple[str, ...]
    parent_id: str | None
    parent_index: int | None
    base_state_json: str | None
    base_index: int
    has_bots: bool
    created_at: datetime
    updated_at: datetime
    migrated_from: str | None = None
    migrated_at: datetime | None = None
    creator_hash: str | None = None
    visibility: str = "public"
    webhooks: bool = field(default=True, compare=False)


@dataclass(frozen=True, slots=True)
class MatchUpdate:
    """The new state of a match after a write.

    Attributes:
        state_json: The new state as JSON text.
        checksum: The new state's action checksum.
        status: The new status.
        result: The game's result once over, else None.
        winners: The winners' player ids.
    """

    state_json: str
    checksum: int
    status: str = "in_progress"
    result: str | None = None
    winners: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StreamGrant:
    """What a redeemed stream token grants.

    Attributes:
        match_id: The match whose events may be streamed.
        player_id: The seat whose perspective is streamed, or None for a spectator.
        seat_token_hash: The hash of the seat token that minted the stream token (None for a
            spectator): the stream is valid while that token holds the seat.
    """

    match_id: str
    player_id: str | None
    seat_token_hash: str | None = None


@dataclass(frozen=True, slots=True)
class NewIdempotencyKey:
    """A client's idempotency key, recorded in the same transaction as the write it made.

    Attributes:
        scope: What the key is for (e.g. ``"create"``, ``"claim <match> <seat>"``): a key is
            unique within its scope.
        key: The client's key.
        request_hash: A hash of the request it answers (a retry must send the same request).
        ttl: How long it is kept, in seconds.
    """

    scope: str
    key: str
    request_hash: str
    ttl: float = 86_400.0


@dataclass(frozen=True, slots=True)
class IdempotencyRecord:
    """A recorded idempotency key and what its write made.

    Attributes:
        scope: As ``NewIdempotencyKey``.
        key: As ``NewIdempotencyKey``.
        request_hash: As ``NewIdempotencyKey``.
        match_id: The match created or changed.
        player_id: The seat claimed, or None.
        token_hash: The hash of the seat token the claim gave (rotated by each retry), or None.
        expires_at: When it is forgotten (UTC).
    """

    scope: str
    key: str
    request_hash: str
    match_id: str
    player_id: str | None
    token_hash: str | None
    expires_at: datetime
