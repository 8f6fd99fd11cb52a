"""Helpers of the browser tests (tests/ui): the server and browser pages they drive."""

from __future__ import annotations

import json
import os
import socket
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from playwright.sync_api import BrowserContext, Page, expect

__all__ = [
    "BOTS_AT_ONCE",
    "CHROMIUM",
    "DEVICES",
    "RECORDER",
    "ROOT",
    "SCREENSHOTS",
    "TABLETOP",
    "UI_DIST",
    "Seat",
    "Server",
    "free_port",
    "tid",
    "walk_json",
]

ROOT = Path(__file__).resolve().parents[3]
DEVICES: dict[str, dict[str, object]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
    "desktop": {"viewport": {"width": 1280, "height": 900}},
}
"""The browser contexts of the device-parametrized tests (the ``open_device`` fixture)."""
UI_DIST = ROOT / "games-ui" / "app" / "dist"
# The README's pictures are refreshed with TABLETOP_UPDATE_SCREENSHOTS=1; an ordinary run saves its
# screenshots under .artifacts/ (git-ignored), so the committed ones don't change with every run's
# match ids.
SCREENSHOTS = (
    ROOT / "games-ui" / "screenshots"
    if os.environ.get("TABLETOP_UPDATE_SCREENSHOTS") == "1"
    else ROOT / ".artifacts" / "screenshots"
)
CHROMIUM = Path(os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium"))
TABLETOP = Path(sys.executable).with_name("tabletop")

# Records every fetch response body and every server-sent event the page receives (and the id of
# the last one that had an id), and keeps the event sources so a test can drop a stream.
RECORDER = """
(() => {
  window.__received = [];
  window.__sources = [];
  const originalFetch = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const response = await originalFetch(...args);
    try {
      const text = await response.clone().text();
      window.__received.push(text);
    } catch (error) {}
    return response;
  };
  const Original = window.EventSource;
  class RecordingEventSource extends Original {
    constructor(url, options) {
      super(url, options);
      window.__sources.push(this);
      for (const name of ["snapshot", "update", "reset", "message"]) {
        super.addEventListener(name, (event) => {
          window.__received.push(event.data);
          if (event.lastEventId) window.__lastEventId = event.lastEventId;
        });
      }
    }
  }
  window.EventSource = RecordingEventSource;
})();
"""


# Bot moves shown as they come, unless the test chose a pace: the "thinking…" beat a player sees
# by default (tabletop.bot-pace-ms) would only slow the tests; test_pacing.py checks it.
BOTS_AT_ONCE = """
if (localStorage.getItem('tabletop.bot-pace-ms') === null) localStorage.setItem('tabletop.bot-pace-ms', '0');
"""


def tid(value: str) -> str:
    """A CSS selector for a ``data-testid``."""
    return f'[data-testid="{value}"]'


def free_port() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """A running ``tabletop serve``: its base URL and its SQLite database file."""

    url: str
    database: Path
    api: httpx.Client

    def create_match(
        self, game: str, seats: list[dict[str, object]], config: dict[str, object] | None = None
    ) -> str:
        """Creates a match through the API and returns its id."""
        response = self.api.post("/api/matches", json={"game": game, "seats": seats, "config": config or {}})
        assert response.status_code == 201, response.text
        match_id: str = response.json()["id"]
        return match_id

    def match(self, match_id: str) -> dict[str, object]:
        """The match's metadata (``GET /api/matches/{id}``)."""
        response = self.api.get(f"/api/matches/{match_id}")
        assert response.status_code == 200, response.text
        info: dict[str, object] = response.json()
        return info


@dataclass
class Seat:
    """One browser context (a player or a spectator) with its page."""

    name: str
    context: BrowserContext
    page: Page
    server_url: str
    dom_texts: list[str] = field(default_factory=list)

    def goto(self, href: str) -> None:
        """Opens a path or an app hash route (``#/match/...``) of the server."""
        self.page.goto(self.server_url + "/" + href.lstrip("/"))

    def join(self, href: str, name: str | None = None) -> None:
        """Opens a join link, chooses a name (or keeps the one offered) and takes the seat."""
        self.goto(href)
        if name is not None:
            self.page.fill(self.testid("join-name"), name)
        self.page.click(self.testid("join-submit"))

    def testid(self, testid: str) -> str:
        """A CSS selector for a ``data-testid``."""
        return f'[data-testid="{testid}"]'

    def index(self) -> int:
        """The match head this page shows."""
        return int(self.page.locator(self.testid("match-page")).get_attribute("data-index") or "0")

    def wait_index(self, index: int, timeout: float = 10_000) -> None:
        """Waits until the page shows at least ``index`` recorded actions."""
        self.page.wait_for_function(
            "(n) => Number(document.querySelector('[data-testid=match-page]')?.dataset.index ?? -1) >= n",
            arg=index,
            timeout=timeout,
        )

    def wait_live(self) -> None:
        """Waits until the match page is loaded and its event stream is connected."""
        expect(self.page.locator(self.testid("connection"))).to_have_attribute(
            "data-connected", "true", timeout=10_000
        )

    def received(self) -> list[str]:
        """Every fetch response body and server-sent event data this page received so far."""
        texts: list[str] = self.page.evaluate("window.__received")
        return texts

    def snapshot_dom(self) -> None:
        """Keeps the page's visible text (for the hidden-information checks)."""
        self.dom_texts.append(self.page.inner_text("body"))

    def mark_no_reload(self) -> None:
        """Sets a marker that a reload would clear."""
        self.page.evaluate("window.__noReload = true")

    def reloaded(self) -> bool:
        """True if the page was reloaded since ``mark_no_reload``."""
        return not bool(self.page.evaluate("window.__noReload === true"))

    def screenshot(self, name: str) -> Path:
        """Saves a screenshot of the page (see ``SCREENSHOTS`` for where)."""
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path


def walk_json(texts: list[str]) -> Iterator[object]:
    """Every JSON value received, parsed (texts that are not JSON are skipped)."""
    for text in texts:
        try:
            yield json.loads(text)
        except ValueError:
            continue
