"""Gallery in the browser: a human against two random bots, and three humans, each to the end."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import ROOT, Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]
MAX_MOVES = 400

AXE = ROOT / "games-ui" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, a dev dependency of games-ui (installed by ``npm ci``)."""

READY = (
    "() => document.querySelector('[data-testid=match-page]')?.dataset.status === 'finished'"
    " || document.querySelector('[data-testid=controls]') !== null"
)


def finished(seat: Seat) -> bool:
    return seat.page.locator(tid("match-page")).get_attribute("data-status") == "finished"


def make_a_move(seat: Seat, *, bid: bool) -> None:
    """The seat's cheapest sensible move: play its first painting, pass, or the lowest amount.

    With ``bid`` it bids the lowest amount in an open or once-around auction instead of passing.
    Waits until the page shows the action recorded.
    """
    page = seat.page
    before = seat.index()
    amount, passing = page.locator(tid("submit-amount")), page.locator(tid("pass"))
    paintings = page.locator('[data-testid^="painting-"]:enabled')
    if page.locator(tid("decline")).count():
        page.click(tid("decline"))
    elif amount.count() and (bid or not passing.count()):
        amount.click()
    elif passing.count():
        passing.click()
    else:
        paintings.first.focus()  # by keyboard: focus a painting and press Enter
        page.keyboard.press("Enter")
    seat.wait_index(before + 1)


def axe_violations(seat: Seat) -> list[str]:
    """What axe-core finds wrong with the Gallery table (rule ids and the elements), empty if nothing."""
    assert AXE.is_file(), f"{AXE} is missing: run npm ci in games-ui"
    if not seat.page.evaluate("typeof window.axe !== 'undefined'"):
        seat.page.add_script_tag(path=str(AXE))
    found: list[str] = seat.page.evaluate(
        """async () => {
            const result = await window.axe.run(document.querySelector('[data-testid=game-gallery]'));
            const where = (v) => v.nodes.map((n) => n.target.join(' ')).join(', ');
            return result.violations.map((v) => `${v.id}: ${where(v)}`);
        }"""
    )
    return found


def test_gallery_one_human_against_two_random_bots_to_the_end(server: Server, open_seat: OpenSeat) -> None:
    ann = open_seat("ann")
    ann.goto("/")
    ann.page.click(tid("game-gallery"))
    ann.page.fill(tid("seat-name-0"), "Ann")
    ann.page.select_option(tid("seat-kind-1"), "random")
    ann.page.select_option(tid("seat-kind-2"), "random")
    ann.page.click(tid("create-submit"))
    ann.wait_live()
    match_id = ann.page.locator(tid("match-page")).get_attribute("data-match-id")
    assert match_id
    expect(ann.page.locator(tid("round"))).to_have_text("Round 1 of 4")
    expect(ann.page.locator(tid("my-money"))).to_have_text("100")
    expect(ann.page.locator(f"{tid('hand')} li")).to_have_count(10)
    expect(ann.page.locator(tid("money-p2"))).to_have_count(0)  # another seat's money is secret
    ann.mark_no_reload()

    moves = 0
    while not finished(ann):
        ann.page.wait_for_function(READY, timeout=20_000)
        if finished(ann):
            break
        moves += 1
        assert moves < MAX_MOVES, "the match did not end"
        if moves in {1, 3, 12}:  # the first turn, an auction, later in the round
            assert axe_violations(ann) == []
        if moves == 3:
            ann.screenshot("gallery")
        make_a_move(ann, bid=moves % 4 == 0)

    info = server.match(match_id)
    assert info["status"] == "finished" and info["result"] == "win"
    expect(ann.page.locator(tid("result"))).to_contain_text("Game over")
    expect(ann.page.locator(tid("round"))).to_have_text("Round 4 of 4")
    entries = ann.page.locator(tid("log-entry")).all_inner_texts()
    assert sum("Round 4 scored" in entry for entry in entries) == 1, entries
    assert any(" bought " in entry or " took " in entry for entry in entries)
    assert axe_violations(ann) == []
    assert not ann.reloaded()


def open_match(ann: Seat, names: list[str]) -> str:
    """Creates a Gallery match of humans in the lobby, ``ann`` in the first seat; returns its id."""
    ann.goto("/")
    ann.page.click(tid("game-gallery"))
    for position, name in enumerate(names):
        ann.page.fill(tid(f"seat-name-{position}"), name)
    ann.page.click(tid("create-submit"))
    page = ann.page.locator(tid("match-page"))
    expect(page).to_be_visible()
    ann.wait_live()
    match_id = page.get_attribute("data-match-id")
    assert match_id
    return match_id


def join(host: Seat, guest: Seat, player_id: str) -> None:
    """``guest`` opens the join link ``host``'s page shows for ``player_id``."""
    href = host.page.get_attribute(tid(f"join-link-{player_id}"), "href")
    assert href
    guest.join(href)
    expect(guest.page.locator(tid("whoami"))).to_have_text(f"You play seat {player_id}")
    guest.wait_live()


FITS = """() => {
    const table = document.querySelector('[data-testid=game-gallery]');
    const right = table.getBoundingClientRect().right;
    return [table.scrollWidth, table.clientWidth, Math.round(right), document.documentElement.clientWidth];
}"""


def assert_fits(seat: Seat) -> None:
    """The Gallery table needs no sideways scrolling (the values table scrolls in its own box).

    Only the table: the app shell around it is not this test's.
    """
    scroll, client, right, screen = seat.page.evaluate(FITS)
    assert scroll <= client and right <= screen, (
        f"the table is {scroll} px wide in {client}, ends at {right} of {screen}"
    )


def seat_to_act(seats: list[Seat], timeout: float = 20.0) -> Seat | None:
    """The first seat whose page offers a move, once one does; None once the match is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if finished(seats[0]):
            return None
        for seat in seats:
            if seat.page.locator(tid("controls")).count():
                return seat
        seats[0].page.wait_for_timeout(50)  # polls the pages until the deadline, not a fixed wait
    pytest.fail(f"no seat could act within {timeout} s")


def test_gallery_three_humans_play_to_the_end_watched_on_a_narrow_screen(
    server: Server, open_seat: OpenSeat, open_narrow_seat: OpenSeat
) -> None:
    ann, bob, cat, narrow = open_seat("ann"), open_seat("bob"), open_seat("cat"), open_narrow_seat("narrow")
    match_id = open_match(ann, ["Ann", "Bob", "Cat"])
    join(ann, bob, "p2")
    join(ann, cat, "p3")
    seats = [ann, bob, cat]
    href = ann.page.get_attribute(tid("spectate-link"), "href")
    assert href
    narrow.goto(href)
    narrow.wait_live()
    assert_fits(narrow)

    moves = 0
    while (seat := seat_to_act(seats)) is not None:
        moves += 1
        assert moves < MAX_MOVES, "the match did not end"
        index = seat.index()
        make_a_move(seat, bid=moves % 5 == 0)
        for other in seats:
            other.wait_index(index + 1)
        if moves == 12:
            assert_fits(narrow)  # mid-auction: the block, its bids and the values table
            narrow.screenshot("gallery-narrow")

    assert server.match(match_id)["status"] == "finished"
    for seat in seats:
        expect(seat.page.locator(tid("result"))).to_contain_text("Game over")
    counts = {seat.page.locator(tid("log-entry")).count() for seat in seats}
    assert len(counts) == 1  # every page shows the same log
    assert_fits(narrow)
