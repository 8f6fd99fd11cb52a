"""Submitting actions: the one write path of play, with idempotency and optimistic concurrency."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

import orjson
from tabletop import IllegalActionError
from tabletop._machine import AnyState
from tabletop.views import HiddenValues

from tabletop_server._errors import ApiError
from tabletop_server._idempotency import check_idempotency_key, ended_error, same_action
from tabletop_server._match import LoadedMatch, status_of_state
from tabletop_server._outbox import events_between
from tabletop_server._runtime import Action, JsonDict, action_json, load_action
from tabletop_server._service import MatchService, bearer_token, storage_error
from tabletop_server._snapshots import snapshot_due
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
    hash_token,
)

__all__ = [
    "MAX_ATTEMPTS",
    "MAX_ID_LENGTH",
    "Submission",
    "check_logic_version",
    "parse_body",
    "play_async",
    "submit",
]

MAX_ID_LENGTH = 64
"""Longest action id a client may choose (the store's id columns hold 64 characters)."""

MAX_ATTEMPTS = 100
"""Re-reads and re-runs on write conflicts before a submission gives up with ``409 conflict``."""

_IF_MATCH = re.compile(r'^\s*(?:W/)?"?(\d{1,9})"?\s*$')
_VERSION = re.compile(r"^\s*(\d{1,6})(?:\.\d{1,6}){0,2}\s*$")


@dataclass(frozen=True, slots=True)
class Submission:
    """A parsed request to play one action.

    Attributes:
        body: The action as the engine will parse it (``player_id``, ``game_id``, ``type`` and
            ``id`` filled in; ``index`` from the body or ``If-Match``, checked by the engine).
        pinned: The index the client pinned (body ``index`` or ``If-Match``), or None.
    """

    body: dict[str, object]
    pinned: object


def parse_body(
    raw: bytes,
    *,
    action_type: str,
    match_id: str,
    player_id: str,
    if_match: str | None,
    idempotency_key: str | None = None,
) -> Submission:
    """Read a submission body and fill in what the server assigns.

    The action id is the submission's idempotency key: the body's ``id``, else the
    ``Idempotency-Key`` header, else a fresh one.

    Raises:
        ApiError: Unreadable JSON, not an object, a ``player_id`` naming another seat
            (``wrong-seat``), another game's id (``wrong-game``), a different ``type``, a bad pin,
            or a body ``id`` other than the ``Idempotency-Key`` header.
    """
    try:
        data = orjson.loads(raw) if raw.strip() else None
    except orjson.JSONDecodeError as error:
        raise ApiError("invalid-json", f"the body is not valid JSON: {str(error)[:80]}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ApiError("not-an-object", "the body must be a JSON object")
    pinned = data.get("index")
    if if_match is not None:
        found = _IF_MATCH.match(if_match)
        if found is None:
            raise ApiError("invalid-header", 'If-Match must be an index, e.g. "7"', path="If-Match")
        header_pin = int(found.group(1))
        if pinned is not None and pinned != header_pin:
            raise ApiError("invalid-value", "body index and If-Match disagree", path="index")
        pinned = data["index"] = header_pin
    claimed = data.get("player_id")
    if claimed is not None and claimed != player_id:
        raise ApiError(
            "wrong-seat", f"this token plays {player_id}; it cannot act for another seat", path="player_id"
        )
    game_id = data.get("game_id")
    if game_id is not None and game_id != match_id:
        raise ApiError("wrong-game", "the action names another match", path="game_id")
    kind = data.get("type")
    if kind is not None and kind != action_type:
        raise ApiError("invalid-value", f"this route takes {action_type} actions", path="type")
    if idempotency_key is not None:
        key = check_idempotency_key(idempotency_key)
        if data.setdefault("id", key) != key:
            raise ApiError("invalid-value", "the body id and the Idempotency-Key header differ", path="id")
    if "id" not in data:
        data["id"] = secrets.token_urlsafe(15)
    elif isinstance(data["id"], str) and not 0 < len(data["id"]) <= MAX_ID_LENGTH:
        raise ApiError("invalid-value", f"an action id has 1 to {MAX_ID_LENGTH} characters", path="id")
    data.update(player_id=player_id, game_id=match_id, type=action_type)
    return Submission(data, pinned)


def check_logic_version(match: LoadedMatch, header: str | None) -> None:
    """Refuse a client built for another major version of the logic the match runs.

    The version compared is the one of the code that runs the match (the installed game once
    the match was migrated, or the frozen copy of its own version), which is also the match's
    stored ``logic_version``.

    Raises:
        ApiError: ``incompatible-logic-version`` (409) or an unreadable header (400).
    """
    if header is None:
        return
    found = _VERSION.match(header)
    if found is None:
        raise ApiError(
            "invalid-header",
            "X-Tabletop-Logic-Version must be a version like 1.2.0",
            path="X-Tabletop-Logic-Version",
        )
    running = match.entry.definition.logic_version
    if found.group(1) != running.split(".")[0]:
        raise ApiError(
            "incompatible-logic-version",
            f"the client was built for {match.row.game} logic {header.strip()[:20]}; "
            f"this match runs {running}",
            path="X-Tabletop-Logic-Version",
        )


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
    state = result.state
    update = MatchUpdate(
        state_json=state.model_dump_json(),
        checksum=state.action_checksum,
        status=status_of_state(state),
        result=None if state.result is None else state.result.value,
        winners=tuple(state.winning_player_ids),
    )
    action_id = str(submission.body["id"])
    recorded = [NewAction.from_action(action, action_id) for action in result.actions]
    hidden = HiddenValues(state, update.state_json)
    if undo_barrier(match.entry, match.hidden, hidden, result.actions):
        recorded = mark_barrier(recorded)
    head = match.row.head
    due = snapshot_due(head, head + len(recorded))
    events = events_between(match, state)
    return _Played(match, state, hidden, list(result.actions), update, recorded, due, events)


def _clock_step(service: MatchService, played: _Played) -> ClockWrite | None:
    """The clock's part of the write (see ``_clocks.ClockKeeper.step``)."""
    if service.clock_step is None:
        return None
    return service.clock_step(played.match, played.state, played.update.status, played.recorded)


def _answer(service: MatchService, played: _Played, row: MatchRow, player_id: str) -> JsonDict:
    """Cache the written match, announce it, and build the ``ActionResponse`` (no I/O)."""
    match, state = played.match, played.state
    written = LoadedMatch(row, match.seats, match.entry, match.game, state, _hidden=played.hidden)
    service.remember(written)
    for hook in service.after_play:
        hook(written, played.recorded)
    service.announce(row)
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
