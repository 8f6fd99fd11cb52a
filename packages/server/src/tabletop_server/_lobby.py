"""The lobby: creating a match, claiming and leaving a seat, and event-stream tokens.

Plain synchronous calls on the service (the routes run them through ``MatchService.io``), as
``_play`` is for actions: each reads what it needs, writes under the store's guards, and keeps
the service's cache and hooks up to date.
"""

from __future__ import annotations

import contextlib
import secrets
from dataclasses import replace
from datetime import timedelta

from tabletop import new_prng_key
from tabletop.clocks import ClockSettings

from tabletop_server._api_models import CreateMatch
from tabletop_server._clock_rules import check_clock
from tabletop_server._creator import claim_key, created_json, creation_key, recorded_creation
from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch, status_of_state
from tabletop_server._runtime import JsonDict, build_game, start_game
from tabletop_server._service import MatchService, bearer_token, storage_error
from tabletop_server.events import MatchChange
from tabletop_server.storage import (
    ClaimClock,
    IdempotentRetryError,
    NewAction,
    NewIdempotencyKey,
    NewMatch,
    NewSeat,
    SeatRow,
    SeatTakenError,
    StorageError,
    hash_token,
    new_match_id,
    new_token,
)

__all__ = ["create", "join", "leave", "stream_token", "take_seat"]


def create(service: MatchService, request: CreateMatch, idempotency_key: str | None = None) -> JsonDict:
    """``POST /api/matches``: start a match with a fresh secret PRNG key; the ``CreatedMatch``
    JSON (with the creator token and the seats' invites, returned once and stored hashed).

    With ``idempotency_key``, a retry of the same request answers with the match the first
    one made (and fresh secrets: the first answer's stop working) instead of a second match.

    Raises:
        ApiError: Unknown game, a config or seat count the game refuses, a bad key, or a key
            used for another request (``idempotency-key-reused``).
    """
    idem = None if idempotency_key is None else creation_key(request, idempotency_key)
    if idem is not None:
        made = _created_before(service, idem)
        if made is not None:
            return made
    entry = service.registry.get(request.game)
    count = len(request.seats)
    definition = entry.definition
    if not definition.min_players <= count <= definition.max_players:
        raise ApiError(
            "invalid-seats",
            f"{entry.name} takes {definition.min_players}..{definition.max_players} seats, not {count}",
            path="seats",
        )
    if service.admit_bots is not None and any(seat.bot is not None for seat in request.seats):
        service.admit_bots()
    check_clock(entry, request.clock)
    match_id = new_match_id()
    creator = new_token()
    invites = {f"p{n}": new_token() for n, seat in enumerate(request.seats, start=1) if seat.bot is None}
    seats = [
        NewSeat(
            player_id=f"p{n}",
            name=seat.name or (f"Bot {n}" if seat.bot is not None else f"Player {n}"),
            bot=None if seat.bot is None else seat.bot.model_dump(mode="json"),
            invite_hash=hash_token(invites[f"p{n}"]) if f"p{n}" in invites else None,
        )
        for n, seat in enumerate(request.seats, start=1)
    ]
    seed = request.seed if request.seed is not None else secrets.randbits(32)
    game = build_game(
        entry, match_id, [(s.player_id, s.name, s.bot is None) for s in seats], request.config, seed
    )
    prng_key = new_prng_key()
    started = start_game(entry, game, prng_key)
    state = started.state
    new_match = NewMatch(
        id=match_id,
        game=entry.name,
        logic_version=definition.logic_version,
        config=game.config.model_dump(mode="json"),
        seed=seed,
        prng_key=prng_key,
        state_json=state.model_dump_json(),
        checksum=state.action_checksum,
        status=status_of_state(state),
        result=None if state.result is None else state.result.value,
        winners=tuple(state.winning_player_ids),
        creator_hash=hash_token(creator),
        visibility=request.visibility,
    )
    log = [NewAction.from_action(action, None) for action in started.actions]
    clock = None
    if service.clock_new is not None:  # (no clock: remembered as such, no read later)
        settings = request.clock or ClockSettings()
        clock = service.clock_new(match_id, entry, game, state, new_match.base_index + len(log), settings)
    try:
        row = service.store.create_match(new_match, seats, log, idempotency=idem, clock=clock)
    except IdempotentRetryError:
        assert idem is not None
        made = _created_before(service, idem)
        if made is None:  # pragma: no cover - the record was just found
            raise ApiError("conflict", "a concurrent request with the same key won; retry") from None
        return made
    except StorageError as error:
        raise storage_error(error) from None
    stored = [
        SeatRow(match_id, s.player_id, n, s.name, s.bot, None, s.invite_hash) for n, s in enumerate(seats)
    ]
    created = LoadedMatch(row, stored, entry, game, state)
    service.remember(created)
    service.announce(row)
    return created_json(row, stored, creator, invites)


def _created_before(service: MatchService, key: NewIdempotencyKey) -> JsonDict | None:
    """The answer to a retried creation (the match the key made, with fresh secrets), or None."""
    made = recorded_creation(service.store, key)
    if made is not None:
        service.cache.drop(str(made["id"]))
    return made


def join(
    service: MatchService,
    match_id: str,
    player_id: str,
    name: str | None,
    invite: str | None = None,
    idempotency_key: str | None = None,
) -> JsonDict:
    """``POST .../seats/{player_id}``: a seat token, returned once (only its hash is kept).

    A private match's seat needs ``invite`` (its invite secret or the creator token). With
    ``idempotency_key``, a retry of the same claim gets a fresh token for the same seat (the
    first answer's token stops working).

    Raises:
        ApiError: ``seat-taken``, ``seat-is-bot``, ``invite-required``, ``invalid-invite``,
            ``match-ended``, ``idempotency-key-reused``, ``unknown-match``, ``unknown-seat``.
    """
    token = new_token()
    key = None
    if idempotency_key is not None:
        key = claim_key(match_id, player_id, name, invite, idempotency_key)
    credential = None if invite is None else hash_token(invite)
    take_seat(service, match_id, player_id, hash_token(token), name=name, credential_hash=credential, key=key)
    return {"player_id": player_id, "token": token}


def take_seat(
    service: MatchService,
    match_id: str,
    player_id: str,
    token_hash: str,
    *,
    name: str | None = None,
    credential_hash: str | None = None,
    key: NewIdempotencyKey | None = None,
    vouched: bool = False,
) -> None:
    """Claim a free seat for the token hashing to ``token_hash`` (``Store.claim_seat``, whose
    arguments these are), with what the claim does to the match's clock (a seat's clock that
    waits for its player starts), and the cache and the ``after_join`` hooks kept up to date.

    Raises:
        ApiError: What the store refused (``seat-taken``, ``invite-required``, ...).
    """
    clock: ClaimClock = "unknown" if service.clock_claim is None else service.clock_claim(match_id, player_id)
    for attempt in range(3):
        try:
            seat = service.store.claim_seat(
                match_id,
                player_id,
                token_hash,
                name=name,
                credential_hash=credential_hash,
                idempotency=key,
                clock=clock,
                vouched=vouched,
            )
            break
        except (IdempotentRetryError, SeatTakenError) as error:  # a concurrent retry won?
            if key is None or attempt == 2 or service.store.idempotency_record(key.scope, key.key) is None:
                raise storage_error(error) from None
        except StorageError as error:
            raise storage_error(error) from None
    else:  # pragma: no cover - the loop breaks or raises
        raise ApiError("conflict", "the seat kept changing; try again")
    known = service.cache.get(match_id)
    if known is not None:
        if name is None:  # the same players: only the token changed
            seats = [seat if s.player_id == player_id else s for s in known.seats]
            service.cache.put(replace(known, seats=seats))
        else:
            service.cache.drop(match_id)
    for hook in service.after_join:
        hook(match_id, clock)


def leave(service: MatchService, match_id: str, player_id: str, authorization: str | None) -> None:
    """``DELETE .../seats/{player_id}``: free the seat the token holds."""
    holder = service.authenticate(match_id, authorization)
    if holder is None:
        raise ApiError("missing-token", "leaving a seat needs its token")
    if holder != player_id:
        raise ApiError("wrong-seat", f"the token holds {holder}, not {player_id[:64]}", path="player_id")
    token = (authorization or "").strip().partition(" ")[2].strip()
    service.cache.drop(match_id)
    try:
        service.store.release_seat(match_id, player_id, token)
    except StorageError as error:
        raise storage_error(error) from None
    finally:
        service.cache.drop(match_id)
    with contextlib.suppress(ApiError):  # wake the seat's streams: they end (PostgreSQL: NOTIFY)
        service.hub.publish(MatchChange(match_id, service.load(match_id).row.head))


def stream_token(service: MatchService, match_id: str, authorization: str | None) -> JsonDict:
    """``POST .../stream-tokens``: a single-use token for the event stream, bound to the seat
    token of ``authorization`` (a spectator's without one).

    Raises:
        ApiError: A token that holds no seat of the match (``invalid-token``), no such match.
    """
    player_id = service.authenticate(match_id, authorization)
    token = bearer_token(authorization)
    seat_hash = None if player_id is None or token is None else hash_token(token)
    ttl = service.settings.stream_token_ttl
    try:
        token = service.store.create_stream_token(
            match_id, player_id, ttl=timedelta(seconds=ttl), seat_token_hash=seat_hash
        )
    except StorageError as error:
        raise storage_error(error) from None
    return {"stream_token": token, "expires_in": ttl}
