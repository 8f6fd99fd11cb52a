"""Undo (the seed's rules, by replay under the head guard) and fork (hidden values re-sampled)."""

from __future__ import annotations

import random
import secrets

import orjson
from tabletop import PrngState, new_prng_key
from tabletop._machine import AnyState
from tabletop.views import project

from tabletop_server._errors import ApiError
from tabletop_server._idempotency import IDEMPOTENCY_TTL, check_idempotency_key, ended_error, request_hash
from tabletop_server._match import LoadedMatch, match_info, status_of_state, stored_update
from tabletop_server._outbox import events_between
from tabletop_server._runtime import JsonDict, build_game, perspective_of
from tabletop_server._service import MatchService, storage_error
from tabletop_server._snapshots import state_at
from tabletop_server.storage import (
    ENDED,
    ActionRow,
    HeadMovedError,
    IdempotentRetryError,
    NewAction,
    NewIdempotencyKey,
    NewMatch,
    NewSeat,
    StorageError,
    hash_token,
    new_match_id,
    new_token,
)
from tabletop_server.storage._access import same_request

__all__ = ["fork", "undo"]

MAX_ATTEMPTS = 50


def undo(
    service: MatchService, match_id: str, player_id: str, idempotency_key: str | None = None
) -> JsonDict:
    """Undo ``player_id``'s last action: replay the log up to it, then cut it under the head guard.

    With ``idempotency_key``, a retry of an undo that happened answers with the seat's view now
    instead of undoing another action.

    The rewind queues ``your-turn`` for every seat active after it that was not before it (see
    ``_outbox.events_between``), in its own transaction, as an action's write does.

    Raises:
        ApiError: ``undo-not-allowed`` (with the reason) when the seed's rule refuses it.
    """
    key = None
    if idempotency_key is not None:
        scope = f"undo {match_id[:64]} {player_id}"
        key = NewIdempotencyKey(
            scope, check_idempotency_key(idempotency_key), request_hash("undo"), IDEMPOTENCY_TTL
        )
        if service.store.idempotency_record(key.scope, key.key) is not None:
            return service.view(match_id, player_id)
    for _ in range(MAX_ATTEMPTS):
        match = service.load(match_id)
        if match.row.status == ENDED:
            raise ended_error(match_id)
        match.check_writable()
        check = service.undo_state(match, player_id)
        if not check.allowed:
            raise ApiError(check.code, check.reason or "nothing to undo")
        state = state_at(service, match, check.to_index)
        # Rows written before barriers were derived carry only the game's own reveals_info: a
        # draw among them is still caught here (the rule itself is the one above).
        if state.prng.invocations != match.state.prng.invocations:
            raise ApiError(
                "undo-not-allowed", "that action drew a chance outcome (a roll, a draw) the player has seen"
            )
        try:
            events = events_between(match, state)  # a seat the undo makes active is told, as after an action
            row = service.store.rewind(
                match.row, check.to_index, stored_update(state), idempotency=key, events=events
            )
        except HeadMovedError:
            continue
        except IdempotentRetryError:
            return service.view(match_id, player_id)
        except StorageError as error:
            raise storage_error(error) from None
        service.announce(row)
        return service.view_of(LoadedMatch(row, match.seats, match.entry, match.game, state), player_id)
    raise ApiError("conflict", "the match kept changing; try again")


def _rekeyed(state: AnyState, match_id: str) -> AnyState:
    """``state`` as the start of a new match: its game id, and a fresh secret PRNG key."""
    state.game_id = match_id
    state.prng = PrngState(seed=state.prng.seed, invocations=state.prng.invocations, key=new_prng_key())
    return state


def fork(
    service: MatchService,
    match_id: str,
    player_id: str | None,
    index: int | None,
    idempotency_key: str | None = None,
) -> JsonDict:
    """Fork a match after its first ``index`` actions into a new match.

    A game without hidden information or chance forks by replay: same seed, key and actions
    (the log is copied with the new match's id). A hidden-information game forks into a world
    consistent with the forker's own view: the game's determinizer re-samples every hidden value
    with a fresh generator, and the world gets a fresh secret key; the true hidden state never
    reaches the fork. A chance game without hidden information forks from its (public) state with
    a fresh key, so a fork cannot be used to see the parent's next rolls.

    With ``idempotency_key``, a retry answers with the fork the first request made (with fresh
    tokens: the first answer's stop working) instead of a second fork.

    Raises:
        ApiError: ``invalid-index``, or ``fork-not-available`` when the game cannot sample a
            world for this perspective (it declares no determinizer, or its determinizer refuses
            the view); ``idempotency-key-reused`` for a key used for another request.
    """
    key = None
    if idempotency_key is not None:
        fingerprint = request_hash(player_id, index)
        checked = check_idempotency_key(idempotency_key)
        key = NewIdempotencyKey(f"fork {match_id[:64]}", checked, fingerprint, IDEMPOTENCY_TTL)
        made = _forked_again(service, key)
        if made is not None:
            return made
    for _ in range(MAX_ATTEMPTS):
        parent = service.load(match_id)
        parent.check_writable()
        row = parent.row
        at = row.head if index is None else index
        if row.migrated_from is not None and 0 <= at < row.base_index:
            raise ApiError(
                "before-migration",
                f"the match was migrated from logic {row.migrated_from} to {row.logic_version} at action "
                f"{row.base_index}; a fork starts at {row.base_index}..{row.head}, not {at}",
                path="index",
            )
        if not row.base_index <= at <= row.head:
            raise ApiError(
                "invalid-index", f"a fork keeps {row.base_index}..{row.head} actions, not {at}", path="index"
            )
        if service.admit_bots is not None and row.has_bots:
            service.admit_bots()
        fork_id = new_match_id()
        seats = [NewSeat(player_id=s.player_id, name=s.name, bot=s.bot) for s in parent.seats]
        game = build_game(
            parent.entry,
            fork_id,
            [(s.player_id, s.name, s.bot is None) for s in seats],
            row.config,
            row.seed,
        )
        entry = parent.entry
        base_json: str | None = None
        actions: list[NewAction] | None = None
        prng_key = row.prng_key
        if entry.hidden_information or entry.definition.chance:
            true_state = parent.state if at == row.head else state_at(service, parent, at)
            if entry.hidden_information:
                true_state = _sampled_world(parent, true_state, player_id)
            else:  # nothing hidden but the future: the state itself, with a fresh key
                true_state = entry.definition.state_type.model_validate_json(true_state.model_dump_json())
            state = _rekeyed(true_state, fork_id)
            base_json = state.model_dump_json()
            prng_key = state.prng.key
        else:  # the same log, renamed: its state is the parent's at ``at`` (snapshot + replay)
            rows = service.store.actions(row.id, after=row.base_index - 1)
            actions = [_renamed(action, fork_id) for action in rows if action.index < at]
            state = state_at(service, parent, at)
            state.game_id = game.id
        new = NewMatch(
            id=fork_id,
            game=row.game,
            logic_version=row.logic_version,
            config=row.config,
            seed=row.seed,
            prng_key=prng_key,
            state_json=state.model_dump_json(),
            checksum=state.action_checksum,
            status=status_of_state(state),
            result=None if state.result is None else state.result.value,
            winners=tuple(state.winning_player_ids),
            base_state_json=base_json,
            visibility=row.visibility,  # a private match's fork is not listed either
        )
        try:
            created = service.store.fork_match(row, at, new, seats, actions, idempotency=key)
        except HeadMovedError:
            continue
        except IdempotentRetryError:
            assert key is not None
            again = _forked_again(service, key)
            if again is None:  # pragma: no cover - the record was just found
                raise ApiError("conflict", "a concurrent request with the same key won; retry") from None
            return again
        except StorageError as error:
            raise storage_error(error) from None
        tokens = {seat.player_id: new_token() for seat in seats if seat.bot is None}
        service.store.set_seat_tokens(fork_id, {p: hash_token(t) for p, t in tokens.items()})
        service.announce(created)
        return {"match": match_info(created, service.store.get_seats(fork_id)), "tokens": tokens}  # type: ignore[dict-item]
    raise ApiError("conflict", "the match kept changing; try again")


def _forked_again(service: MatchService, key: NewIdempotencyKey) -> JsonDict | None:
    """The answer to a retried fork: the fork the key made, with fresh tokens for its human seats."""
    try:
        record = service.store.idempotency_record(key.scope, key.key)
        if record is None:
            return None
        same_request(record, key)
        seats = service.store.get_seats(record.match_id)
        tokens = {seat.player_id: new_token() for seat in seats if seat.bot is None}
        service.store.set_seat_tokens(record.match_id, {p: hash_token(t) for p, t in tokens.items()})
        row, seats = service.store.get_match_and_seats(record.match_id)
    except StorageError as error:
        raise storage_error(error) from None
    service.cache.drop(row.id)
    return {"match": match_info(row, seats), "tokens": tokens}  # type: ignore[dict-item]


def _renamed(action: ActionRow, fork_id: str) -> NewAction:
    data = orjson.loads(action.json)
    data["game_id"] = fork_id
    return NewAction(
        index=action.index,
        action_id=action.action_id,
        submission_id=action.submission_id,
        player_id=action.player_id,
        type=action.type,
        source=action.source,
        reveals_info=action.reveals_info,
        json=orjson.dumps(data).decode(),
    )


def _sampled_world(match: LoadedMatch, state: AnyState, player_id: str | None) -> AnyState:
    determinizer = match.entry.definition.determinizer
    if determinizer is None:
        raise ApiError("fork-not-available", f"{match.entry.name} has no determinizer to sample a fork from")
    view = project(state, perspective_of(player_id))
    rng = random.Random(secrets.randbits(64))
    try:
        world = determinizer(view, player_id, rng)
    except (ValueError, TypeError, KeyError):
        who = "a spectator" if player_id is None else player_id
        raise ApiError(
            "fork-not-available",
            f"{match.entry.name} cannot sample a world from {who}'s view; fork from a seat",
        ) from None
    return match.entry.definition.state_type.model_validate(world)
