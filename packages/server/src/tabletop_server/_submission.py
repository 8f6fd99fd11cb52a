"""A submission: an action's request body as parsed, with what the server fills in, and the
client's logic-version header checked against the code that runs the match."""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

import orjson

from tabletop_server._errors import ApiError
from tabletop_server._idempotency import check_idempotency_key
from tabletop_server._match import LoadedMatch

__all__ = ["MAX_ID_LENGTH", "Submission", "check_logic_version", "parse_body"]

MAX_ID_LENGTH = 64
"""Longest action id a client may choose (the store's id columns hold 64 characters)."""

_IF_MATCH = re.compile(r'^\s*(?:W/)?"?(\d{1,9})"?\s*$')
_VERSION = re.compile(r"^\s*(\d{1,6})(?:\.\d{1,6}){0,2}\s*$")


@dataclass(frozen=True, slots=True)
class Submission:
    """A parsed request to play one action.

    Attributes:
        body: The action as the engine will parse it (``player_id``, ``game_id``, ``type`` and
            ``id`` filled in; ``index`` from the body or ``If-Match``, checked by the engine).
        pinned: The index the client pinned (body ``index`` or ``If-Match``), or None.
    """

    body: dict[str, object]
    pinned: object


def parse_body(
    raw: bytes,
    *,
    action_type: str,
    match_id: str,
    player_id: str,
    if_match: str | None,
    idempotency_key: str | None = None,
) -> Submission:
    """Read a submission body and fill in what the server assigns.

    The action id is the submission's idempotency key: the body's ``id``, else the
    ``Idempotency-Key`` header, else a fresh one.

    Raises:
        ApiError: Unreadable JSON, not an object, a ``player_id`` naming another seat
            (``wrong-seat``), another game's id (``wrong-game``), a different ``type``, a bad pin,
            or a body ``id`` other than the ``Idempotency-Key`` header.
    """
    try:
        data = orjson.loads(raw) if raw.strip() else None
    except orjson.JSONDecodeError as error:
        raise ApiError("invalid-json", f"the body is not valid JSON: {str(error)[:80]}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ApiError("not-an-object", "the body must be a JSON object")
    pinned = data.get("index")
    if if_match is not None:
        found = _IF_MATCH.match(if_match)
        if found is None:
            raise ApiError("invalid-header", 'If-Match must be an index, e.g. "7"', path="If-Match")
        header_pin = int(found.group(1))
        if pinned is not None and pinned != header_pin:
            raise ApiError("invalid-value", "body index and If-Match disagree", path="index")
        pinned = data["index"] = header_pin
    claimed = data.get("player_id")
    if claimed is not None and claimed != player_id:
        raise ApiError(
            "wrong-seat", f"this token plays {player_id}; it cannot act for another seat", path="player_id"
        )
    game_id = data.get("game_id")
    if game_id is not None and game_id != match_id:
        raise ApiError("wrong-game", "the action names another match", path="game_id")
    kind = data.get("type")
    if kind is not None and kind != action_type:
        raise ApiError("invalid-value", f"this route takes {action_type} actions", path="type")
    if idempotency_key is not None:
        key = check_idempotency_key(idempotency_key)
        if data.setdefault("id", key) != key:
            raise ApiError("invalid-value", "the body id and the Idempotency-Key header differ", path="id")
    if "id" not in data:
        data["id"] = secrets.token_urlsafe(15)
    elif isinstance(data["id"], str) and not 0 < len(data["id"]) <= MAX_ID_LENGTH:
        raise ApiError("invalid-value", f"an action id has 1 to {MAX_ID_LENGTH} characters", path="id")
    data.update(player_id=player_id, game_id=match_id, type=action_type)
    return Submission(data, pinned)


def check_logic_version(match: LoadedMatch, header: str | None) -> None:
    """Refuse a client built for another major version of the logic the match runs.

    The version compared is the one of the code that runs the match (the installed game once
    the match was migrated, or the frozen copy of its own version), which is also the match's
    stored ``logic_version``.

    Raises:
        ApiError: ``incompatible-logic-version`` (409) or an unreadable header (400).
    """
    if header is None:
        return
    found = _VERSION.match(header)
    if found is None:
        raise ApiError(
            "invalid-header",
            "X-Tabletop-Logic-Version must be a version like 1.2.0",
            path="X-Tabletop-Logic-Version",
        )
    running = match.entry.definition.logic_version
    if found.group(1) != running.split(".")[0]:
        raise ApiError(
            "incompatible-logic-version",
            f"the client was built for {match.row.game} logic {header.strip()[:20]}; "
            f"this match runs {running}",
            path="X-Tabletop-Logic-Version",
        )
