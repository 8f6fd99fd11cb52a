"""JSON responses rendered with orjson (the hot path of every request)."""

from __future__ import annotations

import orjson
from starlette.responses import Response

__all__ = ["JsonResponse", "dumps"]


def dumps(value: object) -> bytes:
    """orjson bytes of ``value`` (pydantic models must be dumped first)."""
    return orjson.dumps(value)


class JsonResponse(Response):
    """A JSON response rendered with orjson."""

    media_type = "application/json"

    def render(self, content: object) -> bytes:
        """The body: ``content`` as orjson bytes."""
        return orjson.dumps(content)
