"""Serving the built UI from ``/`` with a single-page-app fallback.

Text files (scripts, styles, the page, SVG, JSON) go out gzip-compressed to a browser that accepts
it (compressed once per file version, then kept in memory; a ``.gz`` file the build wrote beside
the original is used as it is). A file under ``assets/`` whose name carries its content hash
(``assets/app-3f9a1c2e.js``: Vite writes only such files there) is cached for a year as
immutable; every other file, ``index.html`` first, is revalidated on each use (``no-cache``), so a
new build reaches players on their next load.
"""

from __future__ import annotations

import gzip
import re
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from tabletop_server._errors import ApiError

__all__ = ["IMMUTABLE", "REVALIDATE", "mount_ui"]

IMMUTABLE = "public, max-age=31536000, immutable"
"""The ``Cache-Control`` of a file named by its content hash."""
REVALIDATE = "no-cache"
"""The ``Cache-Control`` of every other file (``index.html``, unhashed files)."""

_HASHED = re.compile(r"[-.][A-Za-z0-9_-]{8,}\.[a-z0-9]+$")
_COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".html", ".svg", ".json", ".map", ".txt", ".webmanifest"})
_MIN_SIZE = 256  # smaller files gain nothing from compression
_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".map": "application/json",
    ".txt": "text/plain; charset=utf-8",
    ".webmanifest": "application/manifest+json",
}


def _cache_control(path: Path, root: Path) -> str:
    relative = path.relative_to(root).as_posix()
    return IMMUTABLE if relative.startswith("assets/") and _HASHED.search(relative) else REVALIDATE


def _accepts_gzip(request: Request) -> bool:
    for part in request.headers.get("accept-encoding", "").split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip().lower() in {"gzip", "*"} and params.replace(" ", "") not in {"q=0", "q=0.0"}:
            return True
    return False


@dataclass
class _Compressed:
    """Gzip bodies of the UI's files, by path, for the file version (mtime, size) they were made of."""

    bodies: dict[Path, tuple[tuple[int, int], bytes]] = field(default_factory=dict)

    def get(self, path: Path) -> tuple[bytes, str] | None:
        """The compressed body and its ETag; None when the file is not worth compressing."""
        if path.suffix not in _COMPRESSIBLE:
            return None
        stat = path.stat()
        if stat.st_size < _MIN_SIZE:
            return None
        version = (stat.st_mtime_ns, stat.st_size)
        cached = self.bodies.get(path)
        if cached is None or cached[0] != version:
            built = path.with_name(path.name + ".gz")
            if built.is_file() and built.stat().st_mtime_ns >= stat.st_mtime_ns:
                body = built.read_bytes()
            else:
                body = gzip.compress(path.read_bytes(), compresslevel=9, mtime=0)
            cached = (version, body)
            self.bodies[path] = cached
        return cached[1], f'"{version[0]:x}-{version[1]:x}-gz"'


def mount_ui(app: FastAPI, ui_dir: Path) -> None:
    """Serve files under ``ui_dir`` at ``/``; any other non-API path gets ``index.html``."""
    root = ui_dir.resolve()
    index = root / "index.html"
    compressed = _Compressed()

    def send(request: Request, path: Path) -> Response:
        headers = {"Cache-Control": _cache_control(path, root), "Vary": "Accept-Encoding"}
        found = compressed.get(path) if _accepts_gzip(request) else None
        if found is None:
            return FileResponse(path, headers=headers)
        body, etag = found
        headers |= {"Content-Encoding": "gzip", "ETag": etag}
        if etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        media_type = _TYPES.get(path.suffix, "application/octet-stream")
        if request.method == "HEAD":
            return Response(headers=headers | {"Content-Length": str(len(body))}, media_type=media_type)
        return Response(body, headers=headers, media_type=media_type)

    async def ui(request: Request) -> Response:
        path = request.path_params.get("path", "")
        if path == "api" or path.startswith("api/"):
            raise ApiError("not-found", "no such API route", status=404)
        candidate = (root / path).resolve()
        if path and candidate.is_file() and candidate.is_relative_to(root):
            return send(request, candidate)
        return send(request, index)

    app.add_route("/{path:path}", ui, methods=["GET", "HEAD"], include_in_schema=False)
