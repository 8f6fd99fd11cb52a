"""A stale action shows its typed error and the board stays consistent; a dropped event stream
reconnects with the last event id and loses nothing; the lobby lists every installed game."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Request, expect
from tabletop_fixtures.browser import Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]


def join(seat: Seat, match_id: str, player_id: str) -> None:
    seat.join(f"#/match/{match_id}/join/{player_id}")
    expect(seat.page.locator(tid("whoami"))).to_have_text(f"You play seat {player_id}")
    seat.wait_live()


def marks(seat: Seat) -> list[str]:
    """The board as the page shows it, row by row."""
    board: list[str] = seat.page.locator('[data-testid^="cell-"]').evaluate_all(
        "(cells) => cells.map((cell) => cell.dataset.mark || '.')"
    )
    return board


def test_a_stale_move_shows_its_typed_error_and_the_board_catches_up(
    server: Server, open_seat: OpenSeat
) -> None:
    match_id = server.create_match("tic-tac-toe", [{"name": "Ann"}, {"name": "Bob"}])
    ann, bob = open_seat("ann"), open_seat("bob")
    join(ann, match_id, "p1")
    join(bob, match_id, "p2")
    # A second tab of Ann's seat that hears nothing live: its board goes stale.
    stale = Seat(name="ann-2", context=ann.context, page=ann.context.new_page(), server_url=server.url)
    stale.page.route("**/events?*", lambda route: route.abort())
    stale.goto(f"#/match/{match_id}")
    expect(stale.page.locator(tid("whoami"))).to_have_text("You play seat p1")
    expect(stale.page.locator(tid("cell-1-1"))).to_be_enabled()

    ann.page.click(tid("cell-0-0"))
    bob.wait_index(1)
    stale.page.click(tid("cell-1-1"))  # pinned to index 0: the server has moved on

    error = stale.page.locator(tid("error"))
    expect(error).to_have_attribute("data-code", "stale-index")
    expect(error).to_contain_text("moved on")
    expect(stale.page.locator(tid("cell-0-0"))).to_have_attribute("data-mark", "X")  # caught up
    expect(stale.page.locator(tid("cell-1-1"))).to_be_disabled()  # Bob's turn now
    assert marks(stale) == marks(ann) == marks(bob)
    assert server.match(match_id)["index"] == 1  # the stale move changed nothing
    stale.screenshot("error-stale-index")


def test_a_dropped_stream_reconnects_with_the_last_event_id_and_loses_nothing(
    server: Server, open_seat: OpenSeat
) -> None:
    match_id = server.create_match("tic-tac-toe", [{"name": "Ann"}, {"name": "Bob"}])
    ann, bob = open_seat("ann"), open_seat("bob")
    join(ann, match_id, "p1")
    join(bob, match_id, "p2")
    bob.mark_no_reload()
    ann.page.click(tid("cell-0-0"))
    bob.page.click(tid("cell-1-1"))
    ann.wait_index(2)
    # Bob's page knows his own move from its answer; wait until his stream has delivered it too,
    # so the stream is dropped after event 1 (not between his answer and that event).
    bob.page.wait_for_function("window.__lastEventId === '1'")

    resumed: list[str] = []

    def note(request: Request) -> None:
        if "/events?" in request.url:
            resumed.extend(parse_qs(urlparse(request.url).query).get("last_event_id", []))

    bob.page.on("request", note)
    bob.page.route("**/events?*", lambda route: route.abort())
    bob.page.evaluate("window.__sources.forEach((s) => { s.close(); s.dispatchEvent(new Event('error')); })")
    expect(bob.page.locator(tid("connection"))).to_have_attribute("data-connected", "false")

    ann.page.click(tid("cell-2-2"))  # Bob is offline for this one
    ann.wait_index(3)
    assert bob.index() == 2

    bob.page.unroute("**/events?*")
    bob.wait_live()
    bob.wait_index(3)
    assert "1" in resumed  # resumed after the last action Bob had seen (index 1)
    expect(bob.page.locator(tid("cell-2-2"))).to_have_attribute("data-mark", "X")
    expect(bob.page.locator(tid("log-entry"))).to_have_count(3)
    assert bob.page.locator(tid("log-entry")).evaluate_all(
        "(items) => items.map((i) => Number(i.dataset.index))"
    ) == [0, 1, 2]
    assert marks(bob) == marks(ann) and not bob.reloaded()
    bob.page.click(tid("cell-2-0"))  # and play goes on
    ann.wait_index(4)

    bob.page.click(tid("leave"))  # Bob gives his seat back: his page watches, the seat is free to join
    expect(bob.page.locator(tid("whoami"))).to_have_text("You are watching")
    expect(ann.page.locator(tid("join-link-p2"))).to_be_visible()
    seats = server.match(match_id)["seats"]
    assert isinstance(seats, list) and seats[1]["occupied"] is False


def test_the_lobby_lists_every_installed_game_with_its_options(server: Server, open_seat: OpenSeat) -> None:
    games = server.api.get("/api/games").json()["games"]
    visitor = open_seat("visitor")
    visitor.goto("/")
    for game in games:
        expect(visitor.page.locator(tid(f"game-{game['name']}"))).to_contain_text(game["title"])
    visitor.page.click(tid("game-sample"))
    expect(visitor.page.locator(tid("config-big_totals_allowed"))).to_be_visible()
    visitor.page.click(tid("game-goofspiel"))
    expect(visitor.page.locator(tid("config-cards"))).to_have_value("13")
    visitor.screenshot("lobby")


def test_undo_then_fork_from_the_match_page(server: Server, open_seat: OpenSeat) -> None:
    match_id = server.create_match("tic-tac-toe", [{"name": "Ann"}, {"name": "Bob"}])
    ann, bob = open_seat("ann"), open_seat("bob")
    join(ann, match_id, "p1")
    join(bob, match_id, "p2")
    ann.page.click(tid("cell-1-1"))
    bob.wait_index(1)
    ann.page.click(tid("undo"))  # nobody acted since: Ann may take it back
    for seat in (ann, bob):
        expect(seat.page.locator(tid("cell-1-1"))).to_have_attribute("data-mark", "")
        expect(seat.page.locator(tid("log-entry"))).to_have_count(0)
    assert server.match(match_id)["index"] == 0
    ann.page.click(tid("cell-0-0"))
    bob.page.click(tid("cell-2-2"))
    ann.wait_index(2)
    expect(ann.page.locator(tid("undo"))).to_have_count(0)  # Bob acted since: no undo offered

    ann.page.click(tid("fork"))
    expect(ann.page.locator(tid("match-page"))).not_to_have_attribute("data-match-id", match_id)
    expect(ann.page.locator(tid("whoami"))).to_have_text("You play seat p1")
    fork_id = ann.page.locator(tid("match-page")).get_attribute("data-match-id")
    assert fork_id and server.match(fork_id)["parent"] == {"match_id": match_id, "index": 2}
    for square in ("cell-0-0", "cell-2-2"):  # the fork's page has loaded its two marks
        expect(ann.page.locator(tid(square))).not_to_have_attribute("data-mark", "")
    assert marks(ann) == marks(bob)  # the fork starts from the position it was made at
    ann.page.click(tid("cell-1-1"))  # and is a match of its own
    ann.wait_index(3)
    assert server.match(match_id)["index"] == 2


def test_the_sample_game_against_a_bot_from_the_lobby(server: Server, open_seat: OpenSeat) -> None:
    ann = open_seat("ann")
    ann.goto("/")
    ann.page.click(tid("game-sample"))
    ann.page.select_option(tid("create-players"), "2")
    ann.page.select_option(tid("seat-kind-1"), "mcts")
    ann.page.fill(tid("seat-iterations-1"), "20")
    ann.page.click(tid("create-submit"))
    ann.wait_live()
    expect(ann.page.locator(tid("seat-p2"))).to_contain_text("mcts bot")
    moves = 0
    while ann.page.locator(tid("match-page")).get_attribute("data-status") != "finished":
        ann.page.wait_for_function(
            "() => document.querySelector('[data-testid=match-page]').dataset.status === 'finished'"
            " || document.querySelector('[data-testid=pass]')?.disabled === false"
        )
        if ann.page.locator(tid("match-page")).get_attribute("data-status") == "finished":
            break
        before = ann.index()
        amounts = ann.page.locator('[data-testid^="add-"]')
        (amounts.last if amounts.count() else ann.page.locator(tid("pass"))).click()
        ann.wait_index(before + 1)
        moves += 1
        if moves == 2:
            ann.screenshot("sample")
    expect(ann.page.locator(tid("result"))).to_contain_text("Game over")
    entries = ann.page.locator(tid("log-entry")).all_inner_texts()
    assert any(entry.split(maxsplit=1)[1].startswith("MCTS bot") for entry in entries), entries
