"""Pacing in the browser: a player sees each bot move after a short "thinking…" beat naming the bot
(its length chosen on the page and remembered), what changed last is highlighted in the log, and an
undo is shown to the other players."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]


def test_a_bot_move_comes_after_a_thinking_beat(server: Server, open_seat: OpenSeat) -> None:
    ann = open_seat("ann")
    ann.goto("/")
    ann.page.evaluate("localStorage.setItem('tabletop.bot-pace-ms', '1200')")  # the player's choice
    robo: dict[str, object] = {"name": "Robo", "bot": {"kind": "random"}}
    match_id = server.create_match("tic-tac-toe", [{"name": "Ann"}, robo])
    ann.join(f"#/match/{match_id}/join/p1")
    ann.wait_live()
    expect(ann.page.locator(tid("bot-pace"))).to_have_value("1200")
    ann.page.click(tid("cell-1-1"))
    expect(ann.page.locator(tid("thinking"))).to_have_text("Robo is thinking…")
    thinking_seen = time.monotonic()
    assert ann.index() == 1  # the bot's move is held back during the beat ...
    ann.wait_index(2, timeout=15_000)  # ... then shown
    assert time.monotonic() - thinking_seen > 0.3
    expect(ann.page.locator(tid("thinking"))).to_have_text("")
    latest = ann.page.locator(f"{tid('log-entry')}.latest")
    expect(latest).to_have_attribute("data-index", "1")  # what changed last, highlighted

    ann.page.select_option(tid("bot-pace"), "0")  # at once, and remembered
    ann.page.reload()
    ann.wait_live()
    expect(ann.page.locator(tid("bot-pace"))).to_have_value("0")


def test_an_undo_is_shown_to_the_other_player(server: Server, open_seat: OpenSeat) -> None:
    match_id = server.create_match("tic-tac-toe", [{"name": "Ann"}, {"name": "Bob"}])
    ann, bob = open_seat("ann"), open_seat("bob")
    ann.join(f"#/match/{match_id}/join/p1")
    bob.join(f"#/match/{match_id}/join/p2")
    ann.wait_live()
    bob.wait_live()
    ann.page.click(tid("cell-0-0"))
    bob.wait_index(1)
    ann.page.click(tid("undo"))
    expect(bob.page.locator(tid("undone"))).to_contain_text("Taken back", timeout=15_000)
    expect(bob.page.locator(tid("match-page"))).to_have_attribute("data-index", "0")
