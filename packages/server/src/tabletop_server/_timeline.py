"""The history viewer's reads: a perspective's view of a match as it was after any past action;
and, once the match is over, its full log and its verification."""

from __future__ import annotations

import orjson
from pydantic import JsonValue

from tabletop_server._errors import ApiError
from tabletop_server._fair import OVER, MatchRecord, verdict_json, verify_match
from tabletop_server._runtime import JsonDict, action_json, load_action, perspective_of, view_json
from tabletop_server._service import MatchService
from tabletop_server._snapshots import state_at

__all__ = ["full_log_page", "verification", "view_at"]


def view_at(service: MatchService, match_id: str, player_id: str | None, index: int) -> JsonDict:
    """``GET .../history/{index}``: ``player_id``'s projected view after the first ``index``
    actions, and the projected actions before it (from the match's replay base).

    The state is rebuilt by the same snapshot-and-replay as undo and fork, then projected for
    the perspective exactly as a live view is: a seat sees of the past what it saw then, a
    spectator the spectator's.

    Raises:
        ApiError: ``invalid-index`` outside ``replay_base .. index``; ``unknown-match``.
    """
    match = service.load(match_id)
    row = match.row
    if not row.base_index <= index <= row.head:
        raise ApiError(
            "invalid-index",
            f"the history of this match covers {row.base_index}..{row.head} actions, not {index}",
            path="index",
        )
    match.check_writable()  # a match no installed code runs cannot be replayed either
    rows = service.store.actions(row.id, after=row.base_index - 1)
    state = state_at(service, match, index, rows)
    perspective = perspective_of(player_id)
    actions: list[JsonValue] = [
        action_json(load_action(match.entry, action.json), perspective)
        for action in rows
        if action.index < index
    ]
    return {
        "match_id": row.id,
        "player_id": player_id,
        "index": index,
        "head": row.head,
        "status": row.status,
        "view": view_json(state, perspective),
        "actions": actions,
    }


def full_log_page(service: MatchService, match_id: str, after: int, limit: int) -> JsonDict:
    """``GET .../full-log?after=N&limit=M``: at most ``limit`` actions after index ``after`` as
    recorded (unprojected), and where the next page starts (``next_after``, null at the end).

    Served only once the match is finished or ended, to anyone: the revealed key gives every
    deal and draw, and the players' hidden choices are shown after the game.

    Raises:
        ApiError: ``not-over`` while the match runs; ``unknown-match``.
    """
    row = service.load(match_id).row
    if row.status not in OVER:
        raise ApiError(
            "not-over",
            f"match {match_id} is {row.status}: its full log is served once it is finished or ended",
        )
    rows = [
        action
        for action in service.store.actions(match_id, after=after, limit=limit)
        if action.index < row.head
    ]
    more = len(rows) == limit and rows[-1].index < row.head - 1
    actions: list[JsonValue] = [orjson.loads(action.json) for action in rows]
    return {"actions": actions, "index": row.head, "next_after": rows[-1].index if more else None}


def verification(service: MatchService, match_id: str) -> JsonDict:
    """``GET .../verification``: ``tabletop verify`` run by the server on the match's public record
    (its info, the spectator's log and view, and the full log once it is over): the same checks
    anyone can run with the CLI.

    Raises:
        ApiError: ``unknown-match``.
    """
    info = service.info(match_id)
    page = service.actions_page(match_id, None, -1, limit=1_000_000)
    view = service.view(match_id, None)
    actions = page["actions"]
    assert isinstance(actions, list)
    full = None
    if info.get("status") in OVER:
        full_actions = full_log_page(service, match_id, -1, 1_000_000)["actions"]
        assert isinstance(full_actions, list)
        full = full_actions
    return verdict_json(verify_match(MatchRecord(info, actions, view, full), service.registry))
