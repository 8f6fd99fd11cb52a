"""Rematch: from a finished match, the next one with the same game, config and seats."""

from __future__ import annotations

import secrets

from tabletop import new_prng_key
from tabletop.clocks import ClockSettings

from tabletop_server._clock_rules import check_clock
from tabletop_server._errors import ApiError
from tabletop_server._lobby import take_seat
from tabletop_server._match import LoadedMatch, status_of_state
from tabletop_server._runtime import JsonDict, build_game, start_game
from tabletop_server._service import MatchService, storage_error
from tabletop_server.storage import (
    MatchRow,
    NewAction,
    NewMatch,
    NewSeat,
    SeatTakenError,
    StorageError,
    hash_token,
    new_match_id,
    new_token,
)

__all__ = ["rematch"]


def rematch(service: MatchService, match_id: str, authorization: str | None) -> JsonDict:
    """``POST .../rematch``: the rematch of a finished match, and a token for the caller's seat in it.

    The first call creates it: the same game (its installed logic version), config, visibility,
    seats (bots stay bots) and clock settings, with a fresh seed and a fresh secret key; the two
    matches link to each other in their info. Every seat holder calls it with their old token and
    gets their seat of the rematch (a new token; calling again gives a fresh one, the earlier one
    stops working). The first call of a seat claims it, as a join does: a clock waiting for the
    seat's player starts then.

    Raises:
        ApiError: ``missing-token`` (a spectator follows ``rematch.next`` of the match info
            instead), ``invalid-token``, ``not-finished`` before the match has a result,
            ``timeout-policy-unsupported`` if the game's installed version no longer allows
            the match's timeout policy.
    """
    player_id = service.authenticate(match_id, authorization)
    if player_id is None:
        service.load(match_id)
        raise ApiError("missing-token", "a rematch is asked for by a seat: send its token")
    match = service.load(match_id)
    if match.row.status != "finished":
        raise ApiError(
            "not-finished", f"match {match_id} is {match.row.status}: a rematch follows a finished match"
        )
    token = new_token()
    try:
        following = service.store.rematch_links(match_id)[1]
        if following is None:
            following = _create(service, match)
        _seat(service, following, player_id, hash_token(token))
    except StorageError as error:
        raise storage_error(error) from None
    service.cache.drop(following)
    return {"match": service.info(following), "player_id": player_id, "token": token}


def _seat(service: MatchService, match_id: str, player_id: str, token_hash: str) -> None:
    """Give a seat holder their seat of the rematch: the first time by a claim (as a join, so a
    clock waiting for the seat starts), later a fresh token for the seat they hold.

    Raises:
        ApiError: What the store refused of the claim (other than the seat being held).
        StorageError: The new token could not be stored.
    """
    try:
        take_seat(service, match_id, player_id, token_hash, vouched=True)  # (the old token vouches)
    except ApiError as error:
        if error.code != SeatTakenError.code:
            raise
        service.store.set_seat_tokens(match_id, {player_id: token_hash})


def _create(service: MatchService, previous: LoadedMatch) -> str:
    """Create the rematch (or find the one a concurrent call created); its id."""
    entry = service.registry.get(previous.row.game)
    if service.admit_bots is not None and previous.row.has_bots:
        service.admit_bots()
    match_id = new_match_id()
    seats = [NewSeat(player_id=s.player_id, name=s.name, bot=s.bot) for s in previous.seats]
    seed = secrets.randbits(32)
    game = build_game(
        entry, match_id, [(s.player_id, s.name, s.bot is None) for s in seats], previous.row.config, seed
    )
    prng_key = new_prng_key()
    started = start_game(entry, game, prng_key)
    state = started.state
    new = NewMatch(
        id=match_id,
        game=entry.name,
        logic_version=entry.definition.logic_version,
        config=game.config.model_dump(mode="json"),
        seed=seed,
        prng_key=prng_key,
        state_json=state.model_dump_json(),
        checksum=state.action_checksum,
        status=status_of_state(state),
        result=None if state.result is None else state.result.value,
        winners=tuple(state.winning_player_ids),
        visibility=previous.row.visibility,
    )
    log = [NewAction.from_action(action, None) for action in started.actions]
    clock = None
    if service.clock_new is not None:  # the same time control and policy (none: untimed)
        settings = _clock_settings(service, previous)
        check_clock(entry, settings)
        clock = service.clock_new(match_id, entry, game, state, new.base_index + len(log), settings)
    row: MatchRow | None = service.store.create_rematch(previous.row.id, new, seats, log, clock=clock)
    if row is None:  # a concurrent call created it
        following = service.store.rematch_links(previous.row.id)[1]
        assert following is not None
        return following
    service.announce(row)
    return row.id


def _clock_settings(service: MatchService, previous: LoadedMatch) -> ClockSettings:
    """The clock settings of ``previous`` (no time control if it has no clock).

    Raises:
        StorageError: The clock could not be read.
    """
    stored = service.store.get_clock(previous.row.id)
    return ClockSettings() if stored is None else ClockSettings.model_validate(stored.settings)
