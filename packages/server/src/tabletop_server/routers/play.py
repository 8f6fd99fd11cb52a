"""What a seat sees and does: the view, the projected log, and one POST route per action type."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated

from fastapi import APIRouter, Header, Query, Request

from tabletop_server._api_models import ActionResponse, ActionsPage, ViewResponse
from tabletop_server._errors import ApiError
from tabletop_server._json import JsonResponse
from tabletop_server._play import play_async
from tabletop_server._registry import GameRegistry
from tabletop_server._service import MAX_LOG_PAGE
from tabletop_server.routers._deps import ERRORS, Authorization, IdempotencyKey, Service, service

__all__ = ["HEADER_LIMITS", "LOGIC_VERSION_HEADER", "action_routes", "router"]

LOGIC_VERSION_HEADER = "X-Tabletop-Logic-Version"

router = APIRouter(tags=["play"], responses=ERRORS)


@router.get("/matches/{match_id}/view", response_model=ViewResponse, operation_id="get_view")
async def get_view(match_id: str, service: Service, authorization: Authorization = None) -> JsonResponse:
    """The caller's projected view (a seat's with its token, else the spectator's), its valid
    action types and legal actions."""
    return JsonResponse(await service.io(service.view_for, match_id, authorization))


@router.get("/matches/{match_id}/actions", response_model=ActionsPage, operation_id="get_actions")
def get_actions(
    match_id: str,
    service: Service,
    after: Annotated[int, Query(ge=-1, le=2**31 - 1)] = -1,
    limit: Annotated[int, Query(ge=1, le=MAX_LOG_PAGE)] = MAX_LOG_PAGE,
    authorization: Authorization = None,
) -> JsonResponse:
    """The action log after index ``after``, projected for the caller: at most ``limit`` actions
    (1,000 at most); ``next_after`` is the ``after`` of the next page (null at the end)."""
    player_id = service.authenticate(match_id, authorization)
    return JsonResponse(service.actions_page(match_id, player_id, after, limit))


Endpoint = Callable[..., Awaitable[JsonResponse]]

HEADER_LIMITS = (
    ("authorization", 512),
    ("if-match", 64),
    ("x-tabletop-logic-version", 32),
    ("idempotency-key", 64),
)
"""The headers the action route reads and their longest accepted values (as the OpenAPI says)."""


def _endpoint(action_type: str) -> Endpoint:
    async def play_action(
        match_id: str,
        request: Request,
        authorization: Authorization = None,
        if_match: Annotated[
            str | None, Header(max_length=64, description='Pin the match head, e.g. `"7"`.')
        ] = None,
        x_tabletop_logic_version: Annotated[
            str | None, Header(max_length=32, description="The game logic version the client was built for.")
        ] = None,
        idempotency_key: IdempotencyKey = None,
    ) -> JsonResponse:
        response = await play_async(
            service(request),
            match_id,
            action_type,
            await request.body(),
            authorization=authorization,
            if_match=if_match,
            logic_version=x_tabletop_logic_version,
            idempotency_key=idempotency_key,
        )
        return JsonResponse(response)

    play_action.__doc__ = f"Play a {action_type} action as the token's seat."
    return play_action


def action_routes(registry: GameRegistry) -> APIRouter:
    """One ``POST /matches/{match_id}/actions/<Type>`` per user action type of the hosted games.

    The request body schema is the action's exported request schema (one per game that has the
    type, each a uniquely named component), with the server-filled fields optional and the
    optional ``index`` pin.
    """
    routes = APIRouter(tags=["play"], responses=ERRORS)
    games_by_type: dict[str, list[str]] = {}
    for entry in registry.entries():
        for action_type in entry.user_action_types:
            games_by_type.setdefault(action_type, []).append(entry.schema_prefix)
    for action_type, prefixes in sorted(games_by_type.items()):
        refs = [{"$ref": f"#/components/schemas/{prefix}{action_type}Request"} for prefix in prefixes]
        schema = refs[0] if len(refs) == 1 else {"oneOf": refs}
        routes.add_api_route(
            f"/matches/{{match_id}}/actions/{action_type}",
            _endpoint(action_type),
            methods=["POST"],
            response_model=ActionResponse,
            operation_id=f"play_{action_type}",
            summary=f"Play {action_type}",
            openapi_extra={
                "requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}
            },
        )

    @routes.post("/matches/{match_id}/actions/{action_type}", include_in_schema=False)
    def unknown_action(match_id: str, action_type: str, service: Service) -> JsonResponse:
        service.load(match_id)
        raise ApiError(
            "unknown-action-type", f"no hosted game has an action {action_type[:64]!r}", path="type"
        )

    return routes
