"""The one error shape of the API, ``{code, message, path}``, and the handlers that produce it."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from tabletop import IllegalActionError, Model

from tabletop_server._json import JsonResponse
from tabletop_server.storage import StorageError

__all__ = ["ApiError", "ErrorBody", "install_error_handlers", "status_of"]

logger = logging.getLogger("tabletop_server")

_STATUS_BY_CODE: dict[str, int] = {
    # 400: unreadable or ill-formed payload
    "invalid-json": 400,
    "not-an-object": 400,
    "unexpected-field": 400,
    "missing-field": 400,
    "missing-action-type": 400,
    "invalid-value": 400,
    "unknown-action-type": 400,
    "wrong-game": 400,
    "missing-id": 400,
    "system-action": 400,
    "system-only": 400,
    "invalid-game": 400,
    "invalid-config": 400,
    "invalid-seats": 400,
    "invalid-index": 400,
    "invalid-header": 400,
    "timeout-policy-unsupported": 400,
    # 401/403: tokens and seats
    "missing-token": 401,
    "invalid-token": 401,
    "invalid-stream-token": 401,
    "wrong-seat": 403,
    "invite-required": 403,
    "invalid-invite": 403,
    "not-creator": 403,
    "player-not-active": 403,
    "unknown-player": 403,
    # 404
    "unknown-game": 404,
    "unknown-match": 404,
    "unknown-seat": 404,
    "not-found": 404,
    "dev-mode-off": 404,
    "no-webhook": 404,
    # 405
    "method-not-allowed": 405,
    # 409: the match moved on, or the request conflicts with it
    "stale-index": 409,
    "seat-taken": 409,
    "seat-is-bot": 409,
    "undo-not-allowed": 409,
    "no-bot-move": 409,
    "incompatible-logic-version": 409,
    "logic-version-unavailable": 409,
    "migration-failed": 409,
    "migration-invalid": 409,
    "before-migration": 409,
    "game-over": 409,
    "conflict": 409,
    "match-exists": 409,
    "duplicate-action-id": 409,
    "fork-not-available": 409,
    "match-ended": 409,
    "idempotency-key-reused": 409,
    "seat-away": 409,
    "seat-not-away": 409,
    "not-finished": 409,
    "not-over": 409,
    # 413
    "payload-too-large": 413,
    # 429: a per-client rate limit (retry after Retry-After seconds)
    "rate-limited": 429,
    "internal-error": 500,
    # 503: the database cannot be reached, or the bots are busy (retry later)
    "storage-unavailable": 503,
    "storage-full": 503,
    "not-ready": 503,
    "bots-busy": 503,
}


def status_of(code: str) -> int:
    """The HTTP status of an error code: the table in API.md; 422 for every other engine code."""
    return _STATUS_BY_CODE.get(code, 422)


class ErrorBody(Model):
    """What every error response holds."""

    code: str
    """Stable kebab-case error code (the engine's codes pass through unchanged)."""
    message: str
    """Human-readable explanation."""
    path: str | None = None
    """Dotted path of the offending field, or null."""
    index: int | None = None
    """For ``stale-index``: the number of actions recorded now."""
    missed: int | None = None
    """For ``stale-index``: how many actions the client has not seen."""


class ApiError(Exception):
    """An error a client gets as ``{code, message, path}`` with the status its code maps to.

    Args:
        code: Stable kebab-case code.
        message: Human-readable explanation (never quoting a secret).
        path: Dotted path of the offending field, if any.
        status: HTTP status; by default from the code (see :func:`status_of`).
        extra: More fields for the body (``index`` and ``missed`` of ``stale-index``).
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        path: str | None = None,
        status: int | None = None,
        extra: Mapping[str, int] | None = None,
    ) -> None:
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message
        self.path = path
        self.status = status if status is not None else status_of(code)
        self.extra = dict(extra or {})

    @classmethod
    def from_illegal(cls, error: IllegalActionError) -> ApiError:
        """The API error of an engine refusal (same code, message and path)."""
        return cls(error.code, error.message, path=error.path)

    def body(self) -> dict[str, object]:
        """The JSON body of the response."""
        return {"code": self.code, "message": self.message, "path": self.path, **self.extra}

    def response(self) -> JsonResponse:
        """The response carrying this error."""
        return JsonResponse(self.body(), status_code=self.status)


def _validation_error(exc: RequestValidationError) -> ApiError:
    errors = exc.errors()
    if not errors:
        return ApiError("invalid-value", "the request is not valid", status=400)
    first = errors[0]
    loc = [str(part) for part in first.get("loc", ()) if part not in ("body", "query", "path", "header")]
    kind = str(first.get("type", ""))
    code = {
        "json_invalid": "invalid-json",
        "missing": "missing-field",
        "extra_forbidden": "unexpected-field",
        "model_attributes_type": "not-an-object",
        "dict_type": "not-an-object",
    }.get(kind, "invalid-value")
    message = str(first.get("msg", "invalid request"))[:200]
    if kind == "string_pattern_mismatch" and loc and loc[-1] == "name":
        message = "a name may not hold control characters (NUL, escapes, line breaks)"
    return ApiError(code, message, path=".".join(loc) or None, status=400)


_HTTP_CODES = {
    400: "invalid-json",  # the framework could not read the body (e.g. JSON that is not UTF-8)
    404: "not-found",
    405: "method-not-allowed",
    413: "payload-too-large",
}


def install_error_handlers(app: FastAPI) -> None:
    """Make every error of ``app`` the project's shape, including FastAPI's own."""

    async def api_error(request: Request, exc: Exception) -> JsonResponse:
        assert isinstance(exc, ApiError)
        return exc.response()

    async def illegal(request: Request, exc: Exception) -> JsonResponse:
        assert isinstance(exc, IllegalActionError)
        return ApiError.from_illegal(exc).response()

    async def storage(request: Request, exc: Exception) -> JsonResponse:
        # A storage refusal no route turned into an ApiError itself (e.g. the database went away
        # mid-request): its code and status, never a 500.
        assert isinstance(exc, StorageError)
        return ApiError(exc.code, exc.message).response()

    async def validation(request: Request, exc: Exception) -> JsonResponse:
        assert isinstance(exc, RequestValidationError)
        return _validation_error(exc).response()

    async def http_error(request: Request, exc: Exception) -> JsonResponse:
        assert isinstance(exc, StarletteHTTPException)
        code = _HTTP_CODES.get(exc.status_code, "http-error")
        message = str(exc.detail)[:200]
        if code == "invalid-json":
            message = "the body cannot be read as JSON (it must be UTF-8)"
        return ApiError(code, message, status=exc.status_code).response()

    async def unexpected(request: Request, exc: Exception) -> JsonResponse:
        logger.error("unexpected error on %s %s", request.method, request.url.path, exc_info=exc)
        return ApiError(
            "internal-error", "the server failed; the request changed nothing", status=500
        ).response()

    app.add_exception_handler(Exception, unexpected)
    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(IllegalActionError, illegal)
    app.add_exception_handler(StorageError, storage)
    app.add_exception_handler(RequestValidationError, validation)
    app.add_exception_handler(StarletteHTTPException, http_error)
