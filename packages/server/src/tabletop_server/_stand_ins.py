"""Absent players: a bot stands in for a seat, and the seat's holder takes it back.

A seat is handed to a bot by its holder (its seat token: "let a bot play for me"), by the
match's creator (the creator token), or by the clock keeper after the policy's ``away_after``
consecutive timeouts. The bot plays through the bot runner, from the seat's view only; the seat
token keeps holding the seat, and with it the holder takes the seat back.
"""

from __future__ import annotations

from tabletop_server._api_models import BotSpec
from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch
from tabletop_server._runtime import JsonDict
from tabletop_server._service import MatchService, bearer_token, storage_error
from tabletop_server.storage import StorageError, hash_token, same_hash

__all__ = ["clock_report", "hand_to_bot", "take_back"]


def _seat_of(service: MatchService, match_id: str, player_id: str) -> LoadedMatch:
    match = service.load(match_id)
    seat = match.seat(player_id)
    if seat is None:
        raise ApiError("unknown-seat", f"the match has no seat {player_id[:64]}", path="player_id")
    if seat.bot is not None:
        raise ApiError("seat-is-bot", f"{player_id} is a bot seat already", path="player_id")
    if match.row.status != "in_progress":
        raise ApiError("game-over", "the match is over")
    return match


def _woken(service: MatchService, match_id: str) -> None:
    service.cache.drop(match_id)
    service.announce(service.load(match_id).row)


def hand_to_bot(
    service: MatchService, match_id: str, player_id: str, authorization: str | None, bot: BotSpec
) -> JsonDict:
    """``POST .../seats/{player_id}/stand-in``: a bot plays for the seat until it is taken back.

    Raises:
        ApiError: ``missing-token``; ``not-creator`` for a token that is neither the seat's nor
            the creator's; ``seat-away`` if a bot stands in already; ``seat-is-bot``,
            ``game-over``, ``unknown-seat``, ``unknown-match``.
    """
    token = bearer_token(authorization)
    match = _seat_of(service, match_id, player_id)
    if token is None:
        raise ApiError("missing-token", "handing a seat to a bot needs its seat token or the creator token")
    if match.holder(hash_token(token)) == player_id:
        reason = "seat"
    elif same_hash(token, match.row.creator_hash):
        reason = "creator"
    else:
        raise ApiError("not-creator", "only the seat's token or the match's creator token hands it to a bot")
    spec = bot.model_dump(mode="json")
    try:
        placed = service.store.put_stand_in(match_id, player_id, spec, reason)
    except StorageError as error:
        raise storage_error(error) from None
    if not placed:
        raise ApiError("seat-away", f"a bot plays for {player_id} already", path="player_id")
    _woken(service, match_id)
    return {"player_id": player_id, "bot": spec, "reason": reason}


def take_back(service: MatchService, match_id: str, player_id: str, authorization: str | None) -> None:
    """``DELETE .../seats/{player_id}/stand-in``: the seat's holder plays again.

    Raises:
        ApiError: ``missing-token``; ``wrong-seat`` for a token that does not hold the seat;
            ``seat-not-away`` if no bot stands in for it; ``unknown-seat``, ``unknown-match``.
    """
    token = bearer_token(authorization)
    match = service.load(match_id)
    if match.seat(player_id) is None:
        raise ApiError("unknown-seat", f"the match has no seat {player_id[:64]}", path="player_id")
    if token is None:
        raise ApiError("missing-token", "taking a seat back needs its seat token")
    if match.holder(hash_token(token)) != player_id:
        raise ApiError("wrong-seat", f"the token does not hold {player_id[:64]}", path="player_id")
    try:
        removed = service.store.remove_stand_in(match_id, player_id)
    except StorageError as error:
        raise storage_error(error) from None
    if not removed:
        raise ApiError("seat-not-away", f"no bot plays for {player_id}", path="player_id")
    _woken(service, match_id)


def clock_report(service: MatchService, match_id: str) -> JsonDict:
    """``GET .../clock``: the match's clock, its recorded timeouts and the seats bots stand in for."""
    match = service.load(match_id)
    try:
        timeouts = service.store.timeouts_of(match_id)
        stand_ins = service.store.stand_ins(match_id)
    except StorageError as error:
        raise storage_error(error) from None
    return {
        "clock": None if service.clock_view is None else service.clock_view(match),
        "timeouts": [
            {
                "index": entry.index,
                "player_id": entry.player_id,
                "due_at": entry.due_at.isoformat(),
                "observed_at": entry.observed_at.isoformat(),
                "policy": entry.policy,
                "outcome": entry.outcome,
                "action_id": entry.action_id,
            }
            for entry in timeouts
        ],
        "stand_ins": [
            {"player_id": stand_in.player_id, "bot": stand_in.bot, "reason": stand_in.reason}
            for stand_in in stand_ins
        ],
    }
