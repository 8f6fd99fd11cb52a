"""Turn notifications: a seat's webhook and its deliveries."""

from __future__ import annotations

from fastapi import APIRouter
from starlette.responses import Response

from tabletop_server._host_models import Deliveries, Webhook, WebhookCreated, WebhookRequest
from tabletop_server._json import JsonResponse
from tabletop_server._webhooks import deliveries, register_webhook, remove_webhook, webhook_of
from tabletop_server.routers._deps import ERRORS, Authorization, Service

__all__ = ["router"]

router = APIRouter(tags=["notifications"], responses=ERRORS)


@router.post(
    "/matches/{match_id}/webhook",
    status_code=201,
    response_model=WebhookCreated,
    operation_id="register_webhook",
)
def register(
    match_id: str, request: WebhookRequest, service: Service, authorization: Authorization = None
) -> JsonResponse:
    """Register the seat's webhook (replacing its previous one): the server POSTs signed events
    (``your-turn``, ``match-finished``, ``clock-low``) to it. The signing secret is returned once."""
    return JsonResponse(register_webhook(service, match_id, authorization, request.url), status_code=201)


@router.get("/matches/{match_id}/webhook", response_model=Webhook, operation_id="get_webhook")
def get(match_id: str, service: Service, authorization: Authorization = None) -> JsonResponse:
    """The seat's webhook (without its secret)."""
    return JsonResponse(webhook_of(service, match_id, authorization))


@router.delete("/matches/{match_id}/webhook", status_code=204, operation_id="remove_webhook")
def remove(match_id: str, service: Service, authorization: Authorization = None) -> Response:
    """Remove the seat's webhook; its undelivered events are dropped."""
    remove_webhook(service, match_id, authorization)
    return Response(status_code=204)


@router.get(
    "/matches/{match_id}/webhook/deliveries", response_model=Deliveries, operation_id="webhook_deliveries"
)
def list_deliveries(match_id: str, service: Service, authorization: Authorization = None) -> JsonResponse:
    """The seat's last 100 deliveries, newest first: pending, delivered or failed (with the last
    error)."""
    return JsonResponse(deliveries(service, match_id, authorization))
