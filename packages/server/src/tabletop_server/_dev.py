"""The developer panel's reads and moves (``tabletop serve --dev``; see ``routers/dev.py``).

Everything here is refused with ``404 dev-mode-off`` unless the server was started with
``--dev`` (``TABLETOP_DEV=1``): the full state and every seat's view are secrets a normal server
never serves. Time travel is read-only: a past index is replayed from the stored log
(``state_at``) and nothing is written; the only write is :func:`bot_move`, one random legal
action for a seat, submitted through the same path as any seat's action.
"""

from __future__ import annotations

import random
import secrets
from typing import cast

import orjson
from pydantic import Field, JsonValue
from tabletop import Model

from tabletop_server._errors import ApiError
from tabletop_server._play import submit
from tabletop_server._runtime import JsonDict, legal_action_bodies, perspective_of, view_json
from tabletop_server._service import MatchService
from tabletop_server._snapshots import state_at
from tabletop_server._submission import Submission

__all__ = ["DevBotMove", "DevInspection", "DevSeatView", "DevStatus", "bot_move", "check_dev", "inspect"]


class DevStatus(Model):
    """``GET /api/dev``: the developer panel is on (a server without ``--dev`` answers 404)."""

    enabled: bool = True
    """Always true (the route exists only in that mode)."""


class DevSeatView(Model):
    """One seat's view at the inspected index, as that seat's page gets it."""

    player_id: str
    """The seat."""
    view: JsonDict
    """The seat's projected view."""
    valid_action_types: list[str]
    """The action types the seat may send at that index."""
    legal_actions: list[JsonDict] | None
    """The seat's legal actions at that index (null when a type cannot enumerate them)."""


class DevInspection(Model):
    """``GET /api/dev/matches/{id}?index=N``: the match after its first ``index`` actions."""

    match_id: str
    """The match."""
    index: int = Field(ge=0)
    """The index shown: the number of actions replayed."""
    head: int = Field(ge=0)
    """The match's current number of recorded actions."""
    base_index: int = Field(ge=0)
    """The first index that can be shown (a fork starts at its parent's index)."""
    state: JsonDict
    """The full state, secrets included."""
    spectator: JsonDict
    """A spectator's view."""
    seats: list[DevSeatView]
    """Each seat's view, in seat order."""
    actions: list[JsonDict]
    """Every recorded action in full (unredacted), up to the head."""


class DevBotMove(Model):
    """``POST /api/dev/matches/{id}/bot-move``: the action played for the seat."""

    player_id: str
    """The seat that moved."""
    action: JsonDict
    """The action played (one of the seat's legal actions, chosen at random)."""
    index: int = Field(ge=0)
    """The match's number of recorded actions after it."""


def check_dev(service: MatchService) -> None:
    """Refuse unless the server runs with ``--dev``.

    Raises:
        ApiError: ``dev-mode-off`` (404).
    """
    if not service.settings.dev:
        raise ApiError(
            "dev-mode-off", "the developer panel is off: start the server with `tabletop serve --dev`"
        )


def inspect(service: MatchService, match_id: str, index: int | None) -> JsonDict:
    """The full state, the spectator's and every seat's view after the first ``index`` actions
    (the head when None), and the whole log; replayed, never written.

    Raises:
        ApiError: ``dev-mode-off``; ``unknown-match``; ``invalid-index`` outside the match's log.
    """
    check_dev(service)
    match = service.load(match_id)
    row = match.row
    at = row.head if index is None else index
    if not row.base_index <= at <= row.head:
        raise ApiError(
            "invalid-index",
            f"index {at} is outside this match's log ({row.base_index} to {row.head})",
            path="index",
        )
    rows = service.store.actions(match_id, after=-1)
    state = state_at(service, match, at, [action for action in rows if action.index >= row.base_index])
    seats = []
    for seat in match.seats:
        valid, legal = legal_action_bodies(match.entry, state, match.game, seat.player_id)
        seats.append(
            {
                "player_id": seat.player_id,
                "view": cast(JsonValue, view_json(state, perspective_of(seat.player_id))),
                "valid_action_types": cast(JsonValue, valid),
                "legal_actions": cast(JsonValue, legal),
            }
        )
    return {
        "match_id": match_id,
        "index": at,
        "head": row.head,
        "base_index": row.base_index,
        "state": cast(JsonValue, orjson.loads(state.model_dump_json())),
        "spectator": cast(JsonValue, view_json(state, perspective_of(None))),
        "seats": cast(JsonValue, seats),
        "actions": [cast(JsonValue, orjson.loads(action.json)) for action in rows if action.index < row.head],
    }


def bot_move(service: MatchService, match_id: str, player_id: str | None) -> JsonDict:
    """Play one random legal action for ``player_id`` (None: the first active seat that has a
    move), as that seat, through the ordinary submission path.

    Raises:
        ApiError: ``dev-mode-off``; ``unknown-match``; ``unknown-seat``; ``no-bot-move`` when
            the seat (or every seat) has no move now, or its moves cannot be listed (a type that
            does not enumerate its actions).
    """
    check_dev(service)
    match = service.load(match_id)
    match.check_writable()
    seat_ids = [seat.player_id for seat in match.seats]
    if player_id is not None and player_id not in seat_ids:
        raise ApiError("unknown-seat", f"match {match_id} has no seat {player_id}", path="player_id")
    candidates = [player_id] if player_id is not None else list(match.state.active_player_ids)
    for candidate in candidates:
        valid, legal = legal_action_bodies(match.entry, match.state, match.game, candidate)
        if not valid:
            continue
        if not legal:
            raise ApiError("no-bot-move", f"the legal actions of {candidate} cannot be listed")
        chosen = dict(random.Random(secrets.randbits(64)).choice(legal))
        head = match.row.head
        body: dict[str, object] = {
            **chosen,
            "id": f"dev-{secrets.token_urlsafe(12)}",
            "player_id": candidate,
            "game_id": match_id,
            "index": head,
        }
        answer, _ = submit(service, match_id, candidate, str(chosen["type"]), Submission(body, head))
        return {"player_id": candidate, "action": cast(JsonValue, chosen), "index": answer["index"]}
    raise ApiError(
        "no-bot-move",
        "no seat has a move to make now" if player_id is None else f"{player_id} has no move now",
    )
