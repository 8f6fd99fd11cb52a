"""Undo (the seed's rules, by replay under the head guard) and fork (hidden values re-sampled)."""

from __future__ import annotations

import random
import secrets

import orjson
from tabletop import PrngState, new_prng_key
from tabletop._machine import AnyState
from tabletop.views import project

from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch, match_info, status_of_state
from tabletop_server._runtime import JsonDict, build_game, load_action, perspective_of, replay
from tabletop_server._service import MatchService, storage_error
from tabletop_server.storage import (
    ActionRow,
    HeadMovedError,
    MatchUpdate,
    NewAction,
    NewMatch,
    NewSeat,
    StorageError,
    hash_token,
    new_token,
)

__all__ = ["fork", "state_at", "undo"]

MAX_ATTEMPTS = 50


def _update(state: AnyState) -> MatchUpdate:
    return MatchUpdate(
        state_json=state.model_dump_json(),
        checksum=state.action_checksum,
        status=status_of_state(state),
        result=None if state.result is None else state.result.value,
        winners=tuple(state.winning_player_ids),
    )


def state_at(
    service: MatchService, match: LoadedMatch, index: int, rows: list[ActionRow] | None = None
) -> AnyState:
    """The match's state after its first ``index`` actions, replayed from the seed (or its base)."""
    row = match.row
    if rows is None:
        rows = service.store.actions(row.id, after=row.base_index - 1)
    actions = [load_action(match.entry, action.json) for action in rows]
    return replay(
        match.entry, match.game, row.prng_key, actions, base_state_json=row.base_state_json, stop=index
    )


def undo(service: MatchService, match_id: str, player_id: str) -> JsonDict:
    """Undo ``player_id``'s last action: replay the log up to it, then cut it under the head guard.

    Raises:
        ApiError: ``undo-not-allowed`` (with the reason) when the seed's rule refuses it.
    """
    for _ in range(MAX_ATTEMPTS):
        match = service.load(match_id)
        check = service.undo_state(match, player_id)
        if not check.allowed:
            raise ApiError("undo-not-allowed", check.reason or "nothing to undo")
        state = state_at(service, match, check.to_index)
        if state.prng.invocations != match.state.prng.invocations:
            raise ApiError(
                "undo-not-allowed", "that action drew a chance outcome (a roll, a draw) the player has seen"
            )
        try:
            row = service.store.rewind(match.row, check.to_index, _update(state))
        except HeadMovedError:
            continue
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


def fork(service: MatchService, match_id: str, player_id: str | None, index: int | None) -> JsonDict:
    """Fork a match after its first ``index`` actions into a new match.

    A game without hidden information or chance forks by replay: same seed, key and actions
    (the log is copied with the new match's id). A hidden-information game forks into a world
    consistent with the forker's own view: the game's determinizer re-samples every hidden value
    with a fresh generator, and the world gets a fresh secret key; the true hidden state never
    reaches the fork. A chance game without hidden information forks from its (public) state with
    a fresh key, so a fork cannot be used to see the parent's next rolls.

    Raises:
        ApiError: ``invalid-index``, or ``fork-not-available`` when the game cannot sample a
            world for this perspective (it declares no determinizer, or its determinizer refuses
            the view).
    """
    for _ in range(MAX_ATTEMPTS):
        parent = service.load(match_id)
        row = parent.row
        at = row.head if index is None else index
        if not row.base_index <= at <= row.head:
            raise ApiError(
                "invalid-index", f"a fork keeps {row.base_index}..{row.head} actions, not {at}", path="index"
            )
        if service.admit_bots is not None and row.has_bots:
            service.admit_bots()
        fork_id = "m_" + secrets.token_hex(8)
        seats = [NewSeat(player_id=s.player_id, name=s.name, bot=s.bot) for s in parent.seats]
        game = build_game(
            parent.entry,
            fork_id,
            [(s.player_id, s.name, s.bot is None) for s in seats],
            row.config,
            row.seed,
        )
        entry = parent.entry
        rows = service.store.actions(row.id, after=row.base_index - 1)
        base_json: str | None = None
        actions: list[NewAction] | None = None
        prng_key = row.prng_key
        if entry.hidden_information or entry.definition.chance:
            true_state = parent.state if at == row.head else state_at(service, parent, at, rows)
            if entry.hidden_information:
                true_state = _sampled_world(parent, true_state, player_id)
            else:  # nothing hidden but the future: the state itself, with a fresh key
                true_state = entry.definition.state_type.model_validate_json(true_state.model_dump_json())
            state = _rekeyed(true_state, fork_id)
            base_json = state.model_dump_json()
            prng_key = state.prng.key
        else:
            actions = [_renamed(action, fork_id) for action in rows if action.index < at]
            loaded = [load_action(entry, action.json) for action in actions]
            state = replay(entry, game, row.prng_key, loaded, base_state_json=row.base_state_json, stop=at)
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
        )
        try:
            created = service.store.fork_match(row, at, new, seats, actions)
        except HeadMovedError:
            continue
        except StorageError as error:
            raise storage_error(error) from None
        tokens: dict[str, str] = {}
        for seat in seats:
            if seat.bot is None:
                token = new_token()
                service.store.claim_seat(fork_id, seat.player_id, hash_token(token))
                tokens[seat.player_id] = token
        service.announce(created)
        return {"match": match_info(created, service.store.get_seats(fork_id)), "tokens": tokens}  # type: ignore[dict-item]
    raise ApiError("conflict", "the match kept changing; try again")


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
