"""Serving the built UI from ``/`` with a single-page-app fallback."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from tabletop_server._errors import ApiError

__all__ = ["mount_ui"]


def mount_ui(app: FastAPI, ui_dir: Path) -> None:
    """Serve files under ``ui_dir`` at ``/``; any other non-API path gets ``index.html``."""
    root = ui_dir.resolve()
    index = root / "index.html"

    async def ui(request: Request) -> Response:
        path = request.path_params.get("path", "")
        if path == "api" or path.startswith("api/"):
            raise ApiError("not-found", "no such API route", status=404)
        candidate = (root / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            return FileResponse(candidate)
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.add_route("/{path:path}", ui, methods=["GET", "HEAD"], include_in_schema=False)
