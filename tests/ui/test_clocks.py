"""The clock in the browser: chosen in the lobby, counting down on the match page from the
server's figures (a reload does not restart it), a bot standing in for the seat and back, and a
loss on time in the log and the result, on a phone and a desktop."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.axe import axe_violations
from tabletop_fixtures.browser import DEVICES, Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]


FULL_MS = 10 * 60 * 1000
"""The chess clock's main time the lobby's default (10 minutes) gives each seat."""


def remaining(seat: Seat, player_id: str) -> int:
    value = seat.page.get_attribute(tid(f"clock-{player_id}"), "data-remaining")
    assert value, f"no remaining time shown for {player_id}"
    return int(float(value))


def test_a_chess_clock_counts_down_and_survives_a_reload(server: Server, open_seat: OpenSeat) -> None:
    ann = open_seat("ann")
    ann.goto("/")
    ann.page.click(tid("game-tic-tac-toe"))
    ann.page.select_option(tid("create-clock-kind"), "chess")
    ann.page.select_option(tid("create-clock-policy"), "bot")
    ann.page.click(tid("create-submit"))
    ann.wait_live()
    match_id = ann.page.get_attribute(tid("match-page"), "data-match-id")
    assert match_id
    clock = server.match(match_id)["clock"]
    assert isinstance(clock, dict) and clock["control"] == {
        "type": "chess",
        "main_seconds": 600.0,
        "increment_seconds": 5.0,
    }
    expect(ann.page.locator(tid("clock-p1"))).to_have_attribute("data-running", "true")
    first = remaining(ann, "p1")
    assert FULL_MS - 60_000 < first <= FULL_MS
    ann.page.wait_for_function(  # it counts down in the page, between the server's answers
        "(n) => Number(document.querySelector('[data-testid=clock-p1]')?.dataset.remaining) < n",
        arg=first - 1_500,
        timeout=20_000,
    )
    before = remaining(ann, "p1")
    ann.page.reload()
    ann.wait_live()
    expect(ann.page.locator(tid("clock-p1"))).to_be_visible()
    after = remaining(ann, "p1")
    assert after < FULL_MS - 1_500, "the reload restarted the clock"
    assert after <= before + 1_000  # the server's figure: no time given back
    assert remaining(ann, "p2") == FULL_MS  # waiting: its bank stands
    assert axe_violations(ann.page, "[data-testid=clock]") == []


def test_let_a_bot_play_for_me_and_take_the_seat_back(server: Server, open_seat: OpenSeat) -> None:
    ann = open_seat("ann")
    ann.goto("/")
    ann.page.click(tid("game-tic-tac-toe"))
    ann.page.click(tid("create-submit"))
    ann.wait_live()
    ann.page.click(tid("stand-in"))
    ann.wait_index(1, timeout=20_000)  # the bot moved for Ann
    expect(ann.page.locator(tid("take-back"))).to_be_visible()
    ann.page.click(tid("take-back"))
    expect(ann.page.locator(tid("stand-in"))).to_be_visible()
    match_id = ann.page.get_attribute(tid("match-page"), "data-match-id")
    report = server.api.get(f"/api/matches/{match_id}/clock").json()
    assert report["stand_ins"] == [] and report["clock"] is None
    assert ann.page.get_attribute(tid("match-page"), "data-index") == "1"


@pytest.mark.parametrize("device", DEVICES)
def test_a_seat_that_runs_out_of_time_sees_the_loss_in_the_log_and_the_result(
    device: str, server: Server, open_device: Callable[[str, str], Seat]
) -> None:
    body = {
        "game": "tic-tac-toe",
        "seats": [{"name": "Ann"}, {"name": "Bob"}],
        "clock": {"control": {"type": "per-turn", "seconds": 1}, "policy": {"on_timeout": "forfeit"}},
    }
    response = server.api.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    match_id = response.json()["id"]
    ann = open_device("ann", device)
    ann.join(f"#/match/{match_id}/join/p1")
    ann.wait_live()  # Ann's clock starts when she takes her seat; Bob's seat waits, not running
    ann.wait_index(1, timeout=20_000)  # her second runs out: the loss is the match's first action
    entry = ann.page.locator(f'{tid("log-entry")}[data-type="TimeExpired"]')
    expect(entry).to_have_text("0 you ran out of time: Bob wins")  # (the log says "you" for this seat)
    expect(ann.page.locator(tid("match-result"))).to_have_text("Game over: Bob wins. You ran out of time.")
    assert server.match(match_id)["status"] == "finished"
    assert axe_violations(ann.page) == []  # the whole finished match page
