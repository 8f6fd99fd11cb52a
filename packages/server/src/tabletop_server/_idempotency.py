"""Clients' idempotency keys: checking them, fingerprinting requests, comparing a retried action.

Every POST that creates or changes something takes a key (the ``Idempotency-Key`` header, or an
action's ``id``): a retry with the same key and the same request gets the original result; the
same key with a different request is ``409 idempotency-key-reused``.
"""

from __future__ import annotations

import hashlib
import re

import orjson
from pydantic import ValidationError

from tabletop_server._errors import ApiError
from tabletop_server._match import LoadedMatch
from tabletop_server._runtime import load_action

__all__ = [
    "IDEMPOTENCY_HEADER",
    "IDEMPOTENCY_TTL",
    "check_idempotency_key",
    "ended_error",
    "request_hash",
    "same_action",
]

IDEMPOTENCY_HEADER = "Idempotency-Key"
"""The header a client sends its key in."""

IDEMPOTENCY_TTL = 86_400.0
"""Seconds a key is remembered (a retry after that is a new request)."""

_KEY = re.compile(r"^[A-Za-z0-9._:~-]{16,64}$")

_ENVELOPE = frozenset(("source", "index", "created_at", "reveals_info", "metadata", "simultaneous_group_id"))
"""What the engine adds to an action when it records it: not part of what the client sent."""


def check_idempotency_key(key: str) -> str:
    """The key, if it is 16 to 64 characters of ``A-Z a-z 0-9 . _ : ~ -`` (a random UUID is).

    Raises:
        ApiError: ``invalid-header`` otherwise.
    """
    key = key.strip()
    if _KEY.match(key) is None:
        raise ApiError(
            "invalid-header",
            "Idempotency-Key must be 16 to 64 characters of A-Z a-z 0-9 . _ : ~ - (e.g. a random UUID)",
            path=IDEMPOTENCY_HEADER,
        )
    return key


def request_hash(*parts: object) -> str:
    """A fingerprint of a request (its JSON-able parts): a retry must send the same."""
    return hashlib.sha256(orjson.dumps(list(parts), option=orjson.OPT_SORT_KEYS)).hexdigest()


def ended_error(match_id: str) -> ApiError:
    """``409 match-ended``: the match was ended and takes no more writes."""
    return ApiError("match-ended", f"match {match_id[:64]} was ended; it takes no more actions or seats")


def same_action(match: LoadedMatch, recorded_json: str, body: dict[str, object]) -> bool:
    """True if ``body`` (a submission with the server's fields filled in) is the action recorded
    as ``recorded_json``: the same type, seat and payload (defaults applied to both)."""
    recorded = load_action(match.entry, recorded_json)
    kind = body.get("type")
    action_type = match.entry.definition.action_by_type.get(kind) if isinstance(kind, str) else None
    if action_type is None:
        return False
    sent = {name: value for name, value in body.items() if name not in _ENVELOPE}
    try:
        parsed = action_type.model_validate(sent)
    except (ValidationError, ValueError, TypeError):
        return False
    return parsed.model_dump(mode="json", exclude=set(_ENVELOPE)) == recorded.model_dump(
        mode="json", exclude=set(_ENVELOPE)
    )
