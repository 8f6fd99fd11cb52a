"""A seat's webhook: registering it, removing it, and listing its deliveries."""

from __future__ import annotations

import secrets

from tabletop_server._errors import ApiError
from tabletop_server._runtime import JsonDict
from tabletop_server._service import MatchService, storage_error
from tabletop_server.storage import DeliveryRow, StorageError, WebhookRow

__all__ = ["deliveries", "register_webhook", "remove_webhook", "webhook_of"]


def _seat(service: MatchService, match_id: str, authorization: str | None) -> str:
    player_id = service.authenticate(match_id, authorization)
    if player_id is None:
        service.load(match_id)  # an unknown match is a 404 first
        raise ApiError("missing-token", "webhooks belong to a seat: send its token")
    return player_id


def _webhook_json(row: WebhookRow) -> JsonDict:
    return {
        "id": row.id,
        "player_id": row.player_id,
        "url": row.url,
        "created_at": row.created_at.isoformat(),
    }


def register_webhook(service: MatchService, match_id: str, authorization: str | None, url: str) -> JsonDict:
    """``POST .../webhook``: register (or replace) the seat's webhook; the secret is returned once.

    Raises:
        ApiError: ``missing-token``, ``invalid-token``, ``unknown-match``.
    """
    player_id = _seat(service, match_id, authorization)
    try:
        row = service.store.register_webhook(
            match_id, player_id, "wh_" + secrets.token_hex(8), url, "whsec_" + secrets.token_hex(24)
        )
    except StorageError as error:
        raise storage_error(error) from None
    return {**_webhook_json(row), "secret": row.secret}


def webhook_of(service: MatchService, match_id: str, authorization: str | None) -> JsonDict:
    """``GET .../webhook``: the seat's webhook, without its secret.

    Raises:
        ApiError: ``no-webhook`` when the seat has none; as ``register_webhook``.
    """
    player_id = _seat(service, match_id, authorization)
    row = service.store.webhook(match_id, player_id)
    if row is None:
        raise ApiError("no-webhook", f"seat {player_id} has no webhook")
    return _webhook_json(row)


def remove_webhook(service: MatchService, match_id: str, authorization: str | None) -> None:
    """``DELETE .../webhook``: remove the seat's webhook and its pending deliveries.

    Raises:
        ApiError: ``no-webhook`` when the seat has none; as ``register_webhook``.
    """
    player_id = _seat(service, match_id, authorization)
    if not service.store.remove_webhook(match_id, player_id):
        raise ApiError("no-webhook", f"seat {player_id} has no webhook")


def _delivery_json(row: DeliveryRow) -> JsonDict:
    return {
        "event_id": row.event_id,
        "type": row.type,
        "index": row.index,
        "created_at": row.created_at.isoformat(),
        "status": row.status,
        "attempts": row.attempts,
        "next_attempt_at": row.next_attempt_at.isoformat(),
        "last_error": row.last_error,
    }


def deliveries(service: MatchService, match_id: str, authorization: str | None) -> JsonDict:
    """``GET .../webhook/deliveries``: the seat's last 100 deliveries, newest first.

    Raises:
        ApiError: As ``register_webhook``.
    """
    player_id = _seat(service, match_id, authorization)
    rows = service.store.deliveries(match_id, player_id, limit=100)
    return {"deliveries": [_delivery_json(row) for row in rows]}
