"""Ending a match: its creator (with the creator token) or an operator (``tabletop db matches end``)."""

from __future__ import annotations

from tabletop_server._errors import ApiError
from tabletop_server._match import match_info
from tabletop_server._runtime import JsonDict
from tabletop_server._service import MatchService, bearer_token, storage_error
from tabletop_server.events import MatchChange
from tabletop_server.storage import StorageError, same_hash

__all__ = ["end_match"]


def end_match(service: MatchService, match_id: str, authorization: str | None) -> JsonDict:
    """``POST .../end`` with the creator token: end the match (``ended``: no more writes, its
    bots stop). Ending an ended match changes nothing.

    Raises:
        ApiError: ``missing-token``; ``not-creator`` for another token; ``game-over`` for a
            finished match; ``unknown-match``.
    """
    token = bearer_token(authorization)
    match = service.load(match_id)
    if token is None:
        raise ApiError("missing-token", "ending a match needs its creator token")
    if not same_hash(token, match.row.creator_hash):
        raise ApiError("not-creator", "only the match's creator token ends it")
    try:
        row = service.store.end_match(match_id)
    except StorageError as error:
        raise storage_error(error) from None
    service.cache.drop(match_id)
    service.hub.publish(MatchChange(row.id, row.head))
    return match_info(row, match.seats, service.store.rematch_links(row.id))
