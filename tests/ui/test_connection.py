"""Honest connection states in the browser: a "reconnecting" banner while the server cannot be
reached, a move made meanwhile kept and sent when it can be (with its action id, so a copy that did
arrive is never applied twice), the banner cleared when the page is live again, and errors in plain
words first."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Route, expect
from tabletop_fixtures.browser import Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]


DROP_STREAMS = "window.__sources.forEach((s) => { s.close(); s.dispatchEvent(new Event('error')); })"
"""What a browser does when the connection under its event streams breaks."""


def seated_against_a_bot(server: Server, seat: Seat) -> str:
    """A tic-tac-toe match: the page plays p1 (X, to move first) against a random bot."""
    match_id = server.create_match(
        "tic-tac-toe", [{"name": "Ann"}, {"name": "Bot", "bot": {"kind": "random"}}]
    )
    seat.join(f"#/match/{match_id}/join/p1")
    expect(seat.page.locator(tid("whoami"))).to_have_text("You play seat p1")
    seat.wait_live()
    return match_id


def moves_of(server: Server, match_id: str, player_id: str) -> list[dict[str, object]]:
    response = server.api.get(f"/api/matches/{match_id}/actions")
    assert response.status_code == 200, response.text
    actions: list[dict[str, object]] = response.json()["actions"]
    return [action for action in actions if action.get("player_id") == player_id]


def test_a_move_made_offline_is_kept_and_sent_once_on_reconnect(server: Server, open_seat: OpenSeat) -> None:
    ann = open_seat("ann")
    match_id = seated_against_a_bot(server, ann)
    expect(ann.page.locator(tid("reconnecting"))).to_have_count(0)

    ann.page.route("**/api/**", lambda route: route.abort("connectionrefused"))  # the server is gone
    ann.page.evaluate(DROP_STREAMS)
    expect(ann.page.locator(tid("reconnecting"))).to_be_visible(timeout=30_000)
    expect(ann.page.locator(tid("connection"))).to_have_attribute("data-connected", "false")
    ann.page.click(tid("cell-1-1"))
    expect(ann.page.locator(tid("queued"))).to_be_visible(timeout=30_000)
    error = ann.page.locator(tid("error"))
    expect(error).to_contain_text("Cannot reach the server")  # plain words, first
    expect(error).not_to_contain_text("TypeError")
    assert moves_of(server, match_id, "p1") == []

    ann.page.unroute("**/api/**")  # the server is back
    ann.wait_live()
    ann.wait_index(1, timeout=30_000)
    expect(ann.page.locator(tid("reconnecting"))).to_have_count(0, timeout=30_000)
    expect(ann.page.locator(tid("cell-1-1"))).to_have_attribute("data-mark", "X")
    mine = moves_of(server, match_id, "p1")
    assert [(m["type"], m["square"]) for m in mine] == [("PlaceMark", {"x": 1, "y": 1})]


def test_a_move_whose_answer_was_lost_is_sent_again_and_applied_once(
    server: Server, open_seat: OpenSeat
) -> None:
    """The server applied the move but every answer was lost: the page keeps the move, sends it
    again with the same id when it can, and the server does not apply it a second time."""
    ann = open_seat("ann")
    match_id = seated_against_a_bot(server, ann)
    delivered: list[str] = []

    def lose_the_answer(route: Route) -> None:
        response = route.fetch()  # the request reaches the server ...
        delivered.append(f"{response.status}")
        route.abort("connectionreset")  # ... and its answer never reaches the page

    ann.page.route("**/api/matches/*/actions/PlaceMark", lose_the_answer)
    ann.page.click(tid("cell-0-0"))
    expect(ann.page.locator(tid("queued"))).to_be_visible(timeout=30_000)
    assert len(delivered) >= 2  # the client's own retries with the same id, then the kept move
    ann.page.unroute("**/api/matches/*/actions/PlaceMark")
    expect(ann.page.locator(tid("queued"))).to_have_count(0, timeout=30_000)  # resent within seconds
    expect(ann.page.locator(tid("cell-0-0"))).to_have_attribute("data-mark", "X")
    expect(ann.page.locator(tid("error"))).to_have_count(0)
    mine = moves_of(server, match_id, "p1")
    assert [(m["type"], m["square"]) for m in mine] == [("PlaceMark", {"x": 0, "y": 0})]
