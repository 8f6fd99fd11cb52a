"""Submitting actions: the one write path of play, with idempotency and optimistic concurrency."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from tabletop import GameAction, IllegalActionError
from tabletop._machine import AnyState
from tabletop.views import HiddenValues

from tabletop_server._errors import ApiError
from tabletop_server._idempotency import ended_error, same_action
from tabletop_server._match import LoadedMatch, stored_update
from tabletop_server._outbox import events_between
from tabletop_server._runtime import Action, JsonDict, action_json, load_action
from tabletop_server._service import MatchService, bearer_token, storage_error
from tabletop_server._snapshots import snapshot_due
from tabletop_server._submission import Submission, check_logic_version, parse_body
from tabletop_server._undo import mark_barrier, undo_barrier, undo_check
from tabletop_server.storage import (
    ENDED,
    ClockWrite,
    DuplicateActionIdError,
    HeadMovedError,
    MatchRow,
    MatchUpdate,
    NewAction,
    OutboxEvent,
    StorageError,
    TimeoutRow,
    hash_token,
)

__all__ = ["MAX_ATTEMPTS", "play_async", "record_host", "submit"]

logger = logging.getLogger("tabletop_server.play")

MAX_ATTEMPTS = 100
"""Re-reads and re-runs on write conflicts before a submission gives up with ``409 conflict``."""


def _stale(match: LoadedMatch, pinned: object, error: IllegalActionError) -> ApiError:
    head = match.row.head
    missed = head - pinned if isinstance(pinned, int) and not isinstance(pinned, bool) else head
    return ApiError(
        error.code, error.message, path=error.path, extra={"index": head, "missed": max(0, missed)}
    )


def _replayed(
    service: MatchService, match_id: str, submission: Submission, player_id: str
) -> JsonDict | None:
    """The original response of an action id this seat already used (a client's retry), or None.

    Raises:
        ApiError: ``idempotency-key-reused``: the id was used for a different action.
    """
    action_id = submission.body["id"]
    if not isinstance(action_id, str):
        return None
    rows = service.store.submission(match_id, action_id, player_id)
    if not rows:
        return None
    match = service.load(match_id)
    if not same_action(match, rows[0].json, submission.body):
        raise ApiError(
            "idempotency-key-reused",
            "this action id was already used for a different action; send a new id",
            path="id",
        )
    response = service.view_of(match, player_id)
    response["actions"] = [action_json(load_action(match.entry, row.json), player_id) for row in rows]
    return response


@dataclass(frozen=True, slots=True)
class _Played:
    """The engine's answer to a submission on one read of the match, ready to be written."""

    match: LoadedMatch
    state: AnyState
    hidden: HiddenValues
    """What ``state`` hides, as far as the undo barrier counted it (kept with the cached match)."""
    actions: list[Action]
    update: MatchUpdate
    recorded: list[NewAction]
    snapshot: bool
    """Keep the new state as a snapshot (see ``_snapshots``)."""
    events: tuple[OutboxEvent, ...]
    """The notifications the write queues (see ``_outbox.events_between``)."""


def _play(match: LoadedMatch, action_type: str, submission: Submission, logic_version: str | None) -> _Played:
    """Run the engine (no I/O). Raises ``ApiError`` or the engine's ``IllegalActionError``."""
    if match.row.status == ENDED:
        raise ended_error(match.row.id)
    match.check_writable()
    if action_type not in match.entry.user_action_types:
        raise ApiError(
            "unknown-action-type",
            f"{match.entry.name} has no action {action_type!r} a player may send",
            path="type",
        )
    check_logic_version(match, logic_version)
    result = match.entry.engine.run(submission.body, match.state, match.game)
    return _played(match, result.state, result.actions, str(submission.body["id"]))


def _played(match: LoadedMatch, state: AnyState, actions: Sequence[Action], action_id: str) -> _Played:
    """What a write of ``actions`` (leading to ``state``) stores, announces and queues."""
    update = stored_update(state)
    recorded = [NewAction.from_action(action, action_id) for action in actions]
    hidden = HiddenValues(state, update.state_json)
    if undo_barrier(match.entry, match.hidden, hidden, actions):
        recorded = mark_barrier(recorded)
    head = match.row.head
    due = snapshot_due(head, head + len(recorded))
    events = events_between(match, state)
    return _Played(match, state, hidden, list(actions), update, recorded, due, events)


def _clock_step(service: MatchService, played: _Played) -> ClockWrite | None:
    """The clock's part of the write (see ``_clocks.ClockKeeper.step``)."""
    if service.clock_step is None:
        return None
    return service.clock_step(played.match, played.state, played.update.status, played.recorded)


def _settled(service: MatchService, played: _Played, row: MatchRow) -> LoadedMatch:
    """Cache the written match and announce it (no I/O)."""
    match = played.match
    written = LoadedMatch(row, match.seats, match.entry, match.game, played.state, _hidden=played.hidden)
    service.remember(written)
    for hook in service.after_play:
        hook(written, played.recorded)
    service.announce(row)
    return written


def _answer(service: MatchService, played: _Played, row: MatchRow, player_id: str) -> JsonDict:
    """Cache the written match, announce it, and build the ``ActionResponse`` (no I/O)."""
    written = _settled(service, played, row)
    # The one undo rule, over the batch just written: the seat's last action is its first row.
    can_undo = undo_check(row, played.recorded, player_id).allowed
    response = service.view_of(written, player_id, can_undo=can_undo)
    response["actions"] = [action_json(action, player_id) for action in played.actions]
    return response


def _refused(match: LoadedMatch, submission: Submission, error: IllegalActionError) -> ApiError:
    if error.code == "stale-index":
        return _stale(match, submission.body.get("index"), error)
    return ApiError.from_illegal(error)


def _invalid_token() -> ApiError:
    return ApiError("invalid-token", "the token holds no seat of this match")


def submit(
    service: MatchService,
    match_id: str,
    player_id: str,
    action_type: str,
    submission: Submission,
    *,
    logic_version: str | None = None,
    seat_hash: str | None = None,
) -> tuple[JsonDict, bool]:
    """Play one action for ``player_id``: ``(ActionResponse JSON, replayed)``.

    ``replayed`` is True when the action id was already recorded and the original result is
    returned instead of playing it again. The engine runs on the worker's cached match when it
    has one; the write's compare-and-set (and, with ``seat_hash``, its check that the token still
    holds the seat) decides, and a refusal is confirmed on a fresh read before it is answered.

    Raises:
        ApiError: The engine's refusal (its code), ``stale-index`` for a pinned index the match
            moved past, ``game-over``, ``unknown-action-type`` for a type this game lacks,
            ``invalid-token`` when ``seat_hash`` no longer holds ``player_id``'s seat.
    """
    seat = None if seat_hash is None else (player_id, seat_hash)
    match = service.cached(match_id)
    fresh = False
    for _ in range(MAX_ATTEMPTS):
        if match is None:
            match, fresh = service.load(match_id), True
        if seat_hash is not None and match.holder(seat_hash) != player_id:
            if fresh:
                raise _invalid_token()
            match = None
            continue
        try:
            played = _play(match, action_type, submission, logic_version)
        except IllegalActionError as error:
            if not fresh:  # refused on the cached match: confirm on the stored one
                match = None
                continue
            original = _replayed(service, match_id, submission, player_id)  # a retry of a recorded id?
            if original is not None:
                return original, True
            raise _refused(match, submission, error) from None
        try:
            row = service.store.append(
                match.row,
                played.update,
                played.recorded,
                seat=seat,
                snapshot=played.snapshot,
                events=played.events,
                clock=_clock_step(service, played),
            )
        except HeadMovedError:
            match = None
            continue
        except DuplicateActionIdError:
            original = _replayed(service, match_id, submission, player_id)  # a retry: the first answer
            if original is not None:
                return original, True
            match = None
            continue
        except StorageError as error:
            raise storage_error(error) from None
        return _answer(service, played, row, player_id), False
    raise ApiError("conflict", "the match kept changing; try again")


async def play_async(
    service: MatchService,
    match_id: str,
    action_type: str,
    raw: bytes,
    *,
    authorization: str | None,
    if_match: str | None,
    logic_version: str | None,
    idempotency_key: str | None = None,
) -> JsonDict:
    """The action route on the event loop: ``submit`` for the token's seat, without a thread.

    The engine runs and the response is built on the loop; only the write waits (SQLite: for
    the writer thread's next group commit; PostgreSQL: a pooled connection in a thread).

    Raises:
        ApiError: As ``submit``; ``missing-token`` without a token, ``invalid-token`` for a token
            that holds no seat, and ``parse_body``'s refusals.
    """
    token = bearer_token(authorization)
    match = service.cached(match_id)
    fresh = False
    if token is None or match is None:
        match, fresh = await service.load_async(match_id), True  # an unknown match is a 404 first
    if token is None:
        raise ApiError("missing-token", "playing an action needs a seat token")
    seat_hash = hash_token(token)
    player_id = match.holder(seat_hash)
    if player_id is None and not fresh:
        match, fresh = await service.load_async(match_id), True
        player_id = match.holder(seat_hash)
    if player_id is None:
        raise _invalid_token()
    submission = parse_body(
        raw,
        action_type=action_type,
        match_id=match_id,
        player_id=player_id,
        if_match=if_match,
        idempotency_key=idempotency_key,
    )
    seat = (player_id, seat_hash)
    current: LoadedMatch | None = match
    for _ in range(MAX_ATTEMPTS):
        if current is None:
            current, fresh = await service.load_async(match_id), True
            if current.holder(seat_hash) != player_id:
                raise _invalid_token()
        try:
            played = _play(current, action_type, submission, logic_version)
        except IllegalActionError as error:
            if not fresh:
                current = None
                continue
            original = await service.io(_replayed, service, match_id, submission, player_id)
            if original is not None:
                return original
            raise _refused(current, submission, error) from None
        try:
            row = await service.store.append_async(
                current.row,
                played.update,
                played.recorded,
                seat=seat,
                snapshot=played.snapshot,
                events=played.events,
                clock=_clock_step(service, played),
            )
        except HeadMovedError:
            current = None
            continue
        except DuplicateActionIdError:
            original = await service.io(_replayed, service, match_id, submission, player_id)
            if original is not None:
                return original
            current = None
            continue
        except StorageError as error:
            raise storage_error(error) from None
        return _answer(service, played, row, player_id)
    raise ApiError("conflict", "the match kept changing; try again")


def record_host(service: MatchService, match: LoadedMatch, action: GameAction, timeout: TimeoutRow) -> bool:
    """Record a host action (a seat's ``TimeExpired``) on ``match`` as read, with the timeout it
    answers, through the write path of play: False if the match moved on or may not take it.

    One transaction stores the action, the state it leads to, the timeout's record, the clock
    and the notifications, under the same compare-and-set as a player's action.
    """
    try:
        result = match.entry.engine.record(action, match.state, match.game)
    except IllegalActionError as error:  # (the clock named a seat the game does not let act)
        logger.warning("host action %s in %s refused: %s", action.type, match.row.id, error.code)
        return False
    played = _played(match, result.state, result.actions, action.id)
    try:
        row = service.store.append(
            match.row,
            played.update,
            played.recorded,
            snapshot=played.snapshot,
            events=played.events,
            clock=_clock_step(service, played),
            timeout=timeout,
        )
    except (HeadMovedError, DuplicateActionIdError):
        return False
    except StorageError as error:
        raise storage_error(error) from None
    _settled(service, played, row)
    return True
