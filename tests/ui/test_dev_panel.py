"""The developer panel in the browser: absent on a server without ``--dev``; with it, "let the bot
move", time travel along the log (read-only), each seat's view, and playing every seat from one
tab."""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, expect
from tabletop_fixtures.browser import RECORDER, ROOT, TABLETOP, UI_DIST, Seat, Server, free_port, tid
from tabletop_fixtures.live_server import NO_RATE_LIMITS_ENV

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def dev_server(tmp_path_factory: pytest.TempPathFactory, chromium: Path) -> Iterator[Server]:
    """``tabletop serve --dev`` on a free loopback port, with a fresh SQLite database and the UI."""
    assert (UI_DIST / "index.html").is_file(), f"{UI_DIST} is not built: run `make ui-build`"
    directory = tmp_path_factory.mktemp("dev-server")
    database = directory / "tabletop.sqlite3"
    port = free_port()
    command = [str(TABLETOP), "serve", "--dev", "--db", f"sqlite:///{database}", "--host", "127.0.0.1"]
    with (directory / "server.log").open("wb") as log:
        process = subprocess.Popen(
            [*command, "--port", str(port), "--ui-dir", str(UI_DIST)],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=os.environ | {"TABLETOP_BOT_DELAY": "0"} | NO_RATE_LIMITS_ENV,
        )
        api = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
        try:
            deadline = time.monotonic() + 120  # generous: a loaded 2-core machine imports slowly
            while True:
                assert process.poll() is None, (directory / "server.log").read_text()
                try:
                    if api.get("/api/dev").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert time.monotonic() < deadline, "the server did not start within 120 s"
                time.sleep(0.1)
            yield Server(url=f"http://127.0.0.1:{port}", database=database, api=api)
        finally:
            api.close()
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def seated(browser: Browser, server: Server, match_id: str, player_id: str) -> Seat:
    """A browser holding ``player_id``'s seat (taken through the API) on the match page."""
    joined = server.api.post(f"/api/matches/{match_id}/seats/{player_id}", json={})
    assert joined.status_code == 201, joined.text
    context: BrowserContext = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(RECORDER)
    context.set_default_timeout(15_000)
    seat = json.dumps({"playerId": player_id, "token": joined.json()["token"]})
    key = json.dumps("tabletop.seat." + match_id)
    # the first load only: the seat switcher replaces the seat and reloads the page
    context.add_init_script(
        f"if (!localStorage.getItem({key})) localStorage.setItem({key}, {json.dumps(seat)})"
    )
    page = context.new_page()
    found = Seat(name=player_id, context=context, page=page, server_url=server.url)
    found.goto(f"#/match/{match_id}")
    expect(page.locator(tid("whoami"))).to_have_text(f"You play seat {player_id}")
    return found


def test_a_server_without_dev_shows_no_panel(browser: Browser, server: Server) -> None:
    match_id = server.create_match("tic-tac-toe", [{"name": "Ann"}, {"name": "Bob"}])
    ann = seated(browser, server, match_id, "p1")
    expect(ann.page.locator(tid("dev-panel-off"))).to_be_attached()
    expect(ann.page.locator(tid("dev-panel"))).to_have_count(0)
    refused = server.api.get(f"/api/dev/matches/{match_id}")
    assert refused.status_code == 404 and refused.json()["code"] == "dev-mode-off"
    ann.context.close()


def test_the_panel_moves_bots_travels_in_time_and_plays_every_seat(
    browser: Browser, dev_server: Server
) -> None:
    match_id = dev_server.create_match("tic-tac-toe", [{"name": "Ann"}, {"name": "Bob"}])
    ann = seated(browser, dev_server, match_id, "p1")
    page = ann.page
    expect(page.locator(tid("dev-panel"))).to_be_visible()
    expect(page.locator(tid("dev-index"))).to_have_text("0")

    page.click(tid("dev-bot-move"))  # p1's move, played at random for the seat
    ann.wait_index(1)
    expect(page.locator(tid("dev-index"))).to_have_text("1")
    assert page.locator('[data-testid^="cell-"][data-mark="X"]').count() == 1

    # each seat's view, and the full state, as trees
    page.click(tid("dev-tab-p2"))
    expect(page.locator(tid("dev-tree"))).to_have_attribute("data-tab", "p2")
    expect(page.locator(tid("dev-tree"))).to_contain_text("valid_action_types")
    page.click(tid("dev-tab-state"))
    expect(page.locator(tid("dev-tree"))).to_contain_text("prng")

    # Bob's seat from this tab: taken, and the page reopens as Bob, whose turn it is
    page.click(tid("dev-play-as-p2"))
    expect(page.locator(tid("whoami"))).to_have_text("You play seat p2")
    free = page.locator('[data-testid^="cell-"]:not([aria-disabled="true"])')
    expect(free).to_have_count(8)
    free.first.click()
    ann.wait_index(2)

    # time travel: back to the start, read-only; the board and the match stay where they are
    page.click(tid("dev-goto-1"))
    expect(page.locator(tid("dev-index"))).to_have_text("1")
    page.locator(tid("dev-travel")).fill("0")
    expect(page.locator(tid("dev-index"))).to_have_text("0")
    assert dev_server.match(match_id)["index"] == 2
    assert page.locator('[data-testid^="cell-"][data-mark]:not([data-mark=""])').count() == 2
    page.click(tid("dev-live"))
    expect(page.locator(tid("dev-index"))).to_have_text("2")

    # and back to Ann's seat (its token is kept for the switcher)
    page.click(tid("dev-play-as-p1"))
    expect(page.locator(tid("whoami"))).to_have_text("You play seat p1")
    expect(page.locator('[data-testid^="cell-"]:not([aria-disabled="true"])')).to_have_count(7)
    ann.context.close()
