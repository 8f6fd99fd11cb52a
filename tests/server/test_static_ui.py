"""The built UI is served compressed, with long cache headers on files named by their content hash
and revalidation on everything else (``tabletop serve --ui-dir``)."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from dataclasses import dataclass

import httpx
import pytest
from tabletop_fixtures.live_server import LiveServer, live_server

SCRIPT = "export const board = 'x';\n" * 200
STYLE = "body { color: #0f172a; }\n" * 50


@pytest.fixture(scope="module")
def ui_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    directory = tmp_path_factory.mktemp("static")
    ui = directory / "ui"
    (ui / "assets").mkdir(parents=True)
    (ui / "index.html").write_text("<!doctype html><title>tabletop</title>" + "<!-- filler -->" * 40)
    (ui / "assets" / "index-Bx3f9a1c.js").write_text(SCRIPT)
    (ui / "assets" / "index-D4e5f6a7.css").write_text(STYLE)
    (ui / "assets" / "logo.png").write_bytes(b"\x89PNG" + bytes(range(256)) * 4)
    (ui / "robots.txt").write_text("User-agent: *\n")
    with live_server(f"sqlite:///{directory / 'db.sqlite3'}", ui_dir=ui) as server:
        yield server


@dataclass
class Answer:
    status_code: int
    headers: httpx.Headers
    raw_body: bytes
    """The bytes on the wire (httpx would decode gzip itself)."""


def get(url: str, path: str, encoding: str | None = "gzip, deflate, br", **headers: str) -> Answer:
    sent = {"Accept-Encoding": encoding or "identity"} | headers
    with httpx.Client(base_url=url) as client, client.stream("GET", path, headers=sent) as response:
        return Answer(response.status_code, response.headers, b"".join(response.iter_raw()))


@pytest.mark.parametrize(
    ("path", "text"),
    [("/assets/index-Bx3f9a1c.js", SCRIPT), ("/assets/index-D4e5f6a7.css", STYLE)],
)
def test_hashed_assets_are_gzipped_and_cached_for_a_year(ui_server: LiveServer, path: str, text: str) -> None:
    response = get(ui_server.url, path)
    assert response.status_code == 200
    assert response.headers["content-encoding"] == "gzip"
    assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "accept-encoding" in response.headers["vary"].lower()
    wire = response.raw_body
    assert gzip.decompress(wire).decode() == text
    assert len(wire) < len(text.encode()) / 4
    again = get(ui_server.url, path, **{"If-None-Match": response.headers["etag"]})
    assert again.status_code == 304


def test_a_browser_that_does_not_accept_gzip_gets_the_plain_file(ui_server: LiveServer) -> None:
    for encoding in (None, "gzip;q=0"):
        response = get(ui_server.url, "/assets/index-Bx3f9a1c.js", encoding=encoding)
        assert "content-encoding" not in response.headers
        assert response.raw_body.decode() == SCRIPT


def test_the_page_and_unhashed_files_are_revalidated_and_binaries_not_recompressed(
    ui_server: LiveServer,
) -> None:
    page = get(ui_server.url, "/match/m_1")  # the single-page app's fallback
    assert page.headers["cache-control"] == "no-cache"
    assert page.headers["content-encoding"] == "gzip"
    assert gzip.decompress(page.raw_body).decode().startswith("<!doctype html>")
    assert page.headers["content-type"].startswith("text/html")
    robots = get(ui_server.url, "/robots.txt")  # too small to gain anything
    assert (robots.headers["cache-control"], "content-encoding" in robots.headers) == ("no-cache", False)
    logo = get(ui_server.url, "/assets/logo.png")  # no hash in its name, and already compressed
    assert logo.headers["cache-control"] == "no-cache"
    assert "content-encoding" not in logo.headers


def test_the_api_is_not_served_from_the_ui_directory(ui_server: LiveServer) -> None:
    missing = get(ui_server.url, "/api/nothing")
    assert (missing.status_code, missing.headers.get("content-encoding")) == (404, None)
