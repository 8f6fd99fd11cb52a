"""Rematch: from a finished match, the next one with the same game, config and seats."""

from __future__ import annotations

import secrets

from tabletop import new_prng_key

from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch, match_info, status_of_state
from tabletop_server._runtime import JsonDict, build_game, start_game
from tabletop_server._service import MatchService, storage_error
from tabletop_server.storage import (
    MatchRow,
    NewAction,
    NewMatch,
    NewSeat,
    StorageError,
    hash_token,
    new_match_id,
    new_token,
)

__all__ = ["rematch"]


def rematch(service: MatchService, match_id: str, authorization: str | None) -> JsonDict:
    """``POST .../rematch``: the rematch of a finished match, and a token for the caller's seat in it.

    The first call creates it: the same game (its installed logic version), config, visibility
    and seats (bots stay bots), with a fresh seed and a fresh secret key; the two matches link
    to each other in their info. Every seat holder calls it with their old token and gets their
    seat of the rematch (a new token; calling again gives a fresh one, the earlier one stops
    working).

    Raises:
        ApiError: ``missing-token`` (a spectator follows ``rematch.next`` of the match info
            instead), ``invalid-token``, ``not-finished`` before the match has a result.
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
    try:
        following = service.store.rematch_links(match_id)[1]
        if following is None:
            following = _create(service, match)
        token = new_token()
        service.store.set_seat_tokens(following, {player_id: hash_token(token)})
        row, seats = service.store.get_match_and_seats(following)
    except StorageError as error:
        raise storage_error(error) from None
    service.cache.drop(following)
    return {"match": match_info(row, seats, (match_id, None)), "player_id": player_id, "token": token}


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
    row: MatchRow | None = service.store.create_rematch(previous.row.id, new, seats, log)
    if row is None:  # a concurrent call created it
        following = service.store.rematch_links(previous.row.id)[1]
        assert following is not None
        return following
    service.announce(row)
    return row.id
