"""Browser tests of the game UIs: Debian's Chromium driven by Playwright against a real server.

One ``tabletop serve`` subprocess per session listens on 127.0.0.1 with a fresh SQLite database
and serves the built app (``make ui-build`` writes ``games-ui/app/dist``); every test creates its
own matches. The project never downloads a browser: Chromium is the system one
(``/usr/bin/chromium``, or ``TABLETOP_CHROMIUM``), and the tests are skipped, loudly, only when it
is missing.

Every page records what it received (the JSON of each fetch response and the data of each
server-sent event, through an init script) and the tests read it back with ``Seat.received()``.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, sync_playwright
from tabletop_fixtures.browser import (
    BOTS_AT_ONCE,
    CHROMIUM,
    DEVICES,
    RECORDER,
    ROOT,
    TABLETOP,
    UI_DIST,
    Seat,
    Server,
    free_port,
)
from tabletop_fixtures.live_server import NO_RATE_LIMITS_ENV


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``browser`` marker of these tests."""
    config.addinivalue_line("markers", "browser: drives Chromium against a real server (tests/ui)")


@pytest.fixture(scope="session")
def chromium() -> Path:
    """The system Chromium; the browser tests are skipped (loudly) without it."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's chromium package")
    return CHROMIUM


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium: Path) -> Iterator[Server]:
    """``tabletop serve`` on a free loopback port, with a fresh SQLite database and the built UI."""
    assert (UI_DIST / "index.html").is_file(), f"{UI_DIST} is not built: run `make ui-build`"
    directory = tmp_path_factory.mktemp("server")
    database = directory / "tabletop.sqlite3"
    port = free_port()
    log = (directory / "server.log").open("wb")
    command = [
        str(TABLETOP),
        "serve",
        "--db",
        f"sqlite:///{database}",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
    ]
    process = subprocess.Popen(
        [*command, "--ui-dir", str(UI_DIST)],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        env=os.environ | {"TABLETOP_BOT_DELAY": "0"} | NO_RATE_LIMITS_ENV,
    )
    url = f"http://127.0.0.1:{port}"
    api = httpx.Client(base_url=url, timeout=10)
    try:
        deadline = time.monotonic() + 120  # generous: a loaded 2-core machine imports slowly
        while True:
            assert process.poll() is None, (directory / "server.log").read_text()
            try:
                if api.get("/api/games").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "the server did not start within 120 s"
            time.sleep(0.1)
        yield Server(url=url, database=database, api=api)
    finally:
        api.close()
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="session")
def playwright_instance(chromium: Path) -> Iterator[Playwright]:
    """Playwright's driver (it never downloads a browser here)."""
    os.environ["PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD"] = "1"
    with sync_playwright() as instance:
        yield instance


@pytest.fixture(scope="session")
def browser(playwright_instance: Playwright, chromium: Path) -> Iterator[Browser]:
    """Headless system Chromium, quiet on a closed network."""
    args = [
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
        "--disable-sync",
        "--disable-gpu",
        "--disable-dev-shm-usage",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")
    launched = playwright_instance.chromium.launch(executable_path=str(chromium), args=args, headless=True)
    yield launched
    launched.close()


@pytest.fixture
def open_seat(browser: Browser, server: Server) -> Iterator[Callable[[str], Seat]]:
    """Opens a new browser context (its own storage: a separate player) with one page."""
    contexts: list[BrowserContext] = []

    def open_one(name: str) -> Seat:
        context = browser.new_context(viewport={"width": 1200, "height": 860})
        context.add_init_script(RECORDER)
        context.add_init_script(BOTS_AT_ONCE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        return Seat(name=name, context=context, page=page, server_url=server.url)

    yield open_one
    for context in contexts:
        context.close()


@pytest.fixture
def open_device(browser: Browser, server: Server) -> Iterator[Callable[[str, str], Seat]]:
    """Opens a player's browser context sized as a phone (touch) or a desktop."""
    contexts: list[BrowserContext] = []

    def open_one(name: str, device: str) -> Seat:
        context = browser.new_context(**DEVICES[device])  # type: ignore[arg-type]
        context.add_init_script(RECORDER)
        context.add_init_script(BOTS_AT_ONCE)
        context.set_default_timeout(15_000)
        contexts.append(context)
        return Seat(name=name, context=context, page=context.new_page(), server_url=server.url)

    yield open_one
    for context in contexts:
        context.close()


@pytest.fixture
def open_narrow_seat(browser: Browser, server: Server) -> Iterator[Callable[[str], Seat]]:
    """As ``open_seat``, on a 320 px wide touch screen (the narrowest the UIs support)."""
    contexts: list[BrowserContext] = []

    def open_one(name: str) -> Seat:
        context = browser.new_context(viewport={"width": 320, "height": 720}, is_mobile=True, has_touch=True)
        context.add_init_script(RECORDER)
        context.add_init_script(BOTS_AT_ONCE)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return Seat(name=name, context=context, page=context.new_page(), server_url=server.url)

    yield open_one
    for context in contexts:
        context.close()
