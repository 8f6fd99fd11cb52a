"""What only a match's creator gets, and the idempotency keys of creations and claims.

A new match comes with a creator token and one invite secret per human seat, returned once and
stored hashed. A retried creation (same ``Idempotency-Key``, same request) answers with the match
the first one made and fresh secrets: the lost answer's secrets stop working.
"""

from __future__ import annotations

from tabletop_server._api_models import CreateMatch
from tabletop_server._errors import ApiError
from tabletop_server._idempotency import IDEMPOTENCY_TTL, check_idempotency_key, request_hash
from tabletop_server._match import match_info
from tabletop_server._runtime import JsonDict
from tabletop_server.storage import (
    MatchRow,
    NewIdempotencyKey,
    SeatRow,
    StorageError,
    Store,
    hash_token,
    new_token,
)
from tabletop_server.storage._access import same_request

__all__ = ["claim_key", "created_json", "creation_key", "invite_link", "recorded_creation"]


def invite_link(match_id: str, player_id: str, secret: str) -> str:
    """The lobby UI's join link of a seat's invite (a URL fragment: never sent to a server)."""
    return f"#/match/{match_id}/join/{player_id}/{secret}"


def created_json(row: MatchRow, seats: list[SeatRow], creator: str, invites: dict[str, str]) -> JsonDict:
    """The ``CreatedMatch`` JSON: the match's info and its creator's secrets."""
    info = match_info(row, seats)
    info["creator_token"] = creator
    info["invites"] = [
        {"player_id": player_id, "invite": secret, "link": invite_link(row.id, player_id, secret)}
        for player_id, secret in invites.items()
    ]
    return info


def creation_key(request: CreateMatch, idempotency_key: str) -> NewIdempotencyKey:
    """The idempotency record of a creation (raises ``ApiError`` for a malformed key)."""
    fingerprint = request_hash(request.model_dump(mode="json"))
    return NewIdempotencyKey("create", check_idempotency_key(idempotency_key), fingerprint, IDEMPOTENCY_TTL)


def claim_key(
    match_id: str, player_id: str, name: str | None, invite: str | None, idempotency_key: str
) -> NewIdempotencyKey:
    """The idempotency record of a seat claim (raises ``ApiError`` for a malformed key)."""
    fingerprint = request_hash(name, None if invite is None else hash_token(invite))
    scope = f"claim {match_id[:64]} {player_id[:64]}"
    return NewIdempotencyKey(scope, check_idempotency_key(idempotency_key), fingerprint, IDEMPOTENCY_TTL)


def recorded_creation(store: Store, key: NewIdempotencyKey) -> JsonDict | None:
    """The answer to a retried creation: the match ``key`` made, with fresh secrets; None if the
    key made nothing (yet).

    Raises:
        ApiError: ``idempotency-key-reused`` for another request; a storage failure's code.
    """
    try:
        record = store.idempotency_record(key.scope, key.key)
        if record is None:
            return None
        same_request(record, key)
        row, seats = store.get_match_and_seats(record.match_id)
        creator = new_token()
        invites = {seat.player_id: new_token() for seat in seats if seat.bot is None}
        hashes = {player_id: hash_token(secret) for player_id, secret in invites.items()}
        store.rotate_secrets(row.id, hash_token(creator), hashes)
        row, seats = store.get_match_and_seats(record.match_id)
    except StorageError as error:
        raise ApiError(error.code, error.message) from None
    return created_json(row, seats, creator, invites)
