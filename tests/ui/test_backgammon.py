"""Backgammon in the browser: a human on a 320 px screen plays a random bot to the end, picking
checkers and their highlighted destinations by mouse and by keyboard, axe-clean throughout."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import ROOT, Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]
MAX_MOVES = 600

AXE = ROOT / "games-ui" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, a dev dependency of games-ui (installed by ``npm ci``)."""

ORIGINS = "[data-testid=game-backgammon] :is([data-testid^=point-], [data-testid^=bar-]):enabled"
TARGETS = "[data-testid=game-backgammon] .target:enabled"
READY = (
    "() => document.querySelector('[data-testid=match-page]')?.dataset.status === 'finished'"
    f" || document.querySelector('{ORIGINS}') !== null"
    " || document.querySelector('[data-testid=pass]') !== null"
)
FITS = """() => {
    const table = document.querySelector('[data-testid=game-backgammon]');
    const right = table.getBoundingClientRect().right;
    return [table.scrollWidth, table.clientWidth, Math.round(right), document.documentElement.clientWidth];
}"""


def finished(seat: Seat) -> bool:
    return seat.page.locator(tid("match-page")).get_attribute("data-status") == "finished"


def axe_violations(seat: Seat) -> list[str]:
    """What axe-core finds wrong with the Backgammon table (rule ids and the elements)."""
    assert AXE.is_file(), f"{AXE} is missing: run npm ci in games-ui"
    if not seat.page.evaluate("typeof window.axe !== 'undefined'"):
        seat.page.add_script_tag(path=str(AXE))
    found: list[str] = seat.page.evaluate(
        """async () => {
            const result = await window.axe.run(document.querySelector('[data-testid=game-backgammon]'));
            const where = (v) => v.nodes.map((n) => n.target.join(' ')).join(', ');
            return result.violations.map((v) => `${v.id}: ${where(v)}`);
        }"""
    )
    return found


def assert_fits(seat: Seat) -> None:
    """The table needs no sideways scrolling on the narrow screen."""
    scroll, client, right, screen = seat.page.evaluate(FITS)
    assert scroll <= client and right <= screen, f"the table is {scroll} px wide in {client}, ends at {right}"


def make_a_move(seat: Seat, *, keyboard: bool, check_a11y: bool) -> None:
    """Pass if that is all there is; else pick the first movable checker and its first
    highlighted destination (by keyboard: focus and Enter). Waits for the move to be recorded."""
    page = seat.page
    before = seat.index()
    if page.locator(tid("pass")).count():
        page.click(tid("pass"))
        seat.wait_index(before + 1)
        return
    first = page.locator(ORIGINS).first
    origin = page.locator(tid(first.get_attribute("data-testid") or ""))  # pinned: targets enable too
    label = origin.get_attribute("aria-label") or origin.inner_text()
    assert label.startswith(("point ", "bar, ")), label
    if keyboard:
        origin.focus()
        page.keyboard.press("Enter")
    else:
        origin.click()
    expect(origin).to_have_attribute("aria-pressed", "true")
    destination = page.locator(TARGETS).first
    expect(destination).to_be_visible()
    name = destination.get_attribute("aria-label") or destination.text_content() or ""  # a tray: its text
    assert "legal destination" in name
    if check_a11y:
        assert axe_violations(seat) == []
    if keyboard:
        destination.focus()
        page.keyboard.press("Enter")
    else:
        destination.click()
    seat.wait_index(before + 1)


def test_backgammon_human_on_a_narrow_screen_against_a_bot_to_the_end(
    server: Server, open_seat: OpenSeat
) -> None:
    ann = open_seat("ann")
    ann.goto("/")
    ann.page.click(tid("game-backgammon"))
    ann.page.fill(tid("seat-name-0"), "Ann")
    ann.page.select_option(tid("seat-kind-1"), "random")
    ann.page.click(tid("create-submit"))
    ann.wait_live()
    ann.page.set_viewport_size({"width": 320, "height": 720})  # the match on a narrow phone screen
    match_id = ann.page.locator(tid("match-page")).get_attribute("data-match-id")
    assert match_id
    expect(ann.page.locator(tid("point-1"))).to_have_attribute("aria-label", "point 1, 2 white checkers")
    # The bot may have opened: Black's points vary, White's point 1 cannot have been touched.
    expect(ann.page.locator(tid("point-6"))).to_have_attribute(
        "aria-label", re.compile(r"point 6, \d+ black checkers?")
    )
    expect(ann.page.locator(tid("off-white"))).to_contain_text("borne off: 0/15")
    assert_fits(ann)
    assert axe_violations(ann) == []
    ann.mark_no_reload()

    moves = 0
    while not finished(ann):
        ann.page.wait_for_function(READY, timeout=30_000)
        if finished(ann):
            break
        moves += 1
        assert moves < MAX_MOVES, "the match did not end"
        make_a_move(ann, keyboard=moves % 3 == 0, check_a11y=moves in {1, 20})
        if moves == 2:
            ann.screenshot("backgammon")

    info = server.match(match_id)
    assert info["status"] == "finished" and info["result"] == "win"
    expect(ann.page.locator(tid("result"))).to_contain_text("Game over")
    expect(ann.page.locator(tid("outcome"))).to_contain_text("won")
    entries = ann.page.locator(tid("log-entry")).all_inner_texts()
    assert any("Random bot" in entry and " moved " in entry for entry in entries), entries[:5]
    assert any("rolled" in entry for entry in entries)
    assert_fits(ann)
    assert axe_violations(ann) == []
    assert not ann.reloaded()


TWO_SEAT_MOVES = 40
"""Moves the two human seats make against each other (several turns each, doubles included)."""

BOARD = """() => [...document.querySelectorAll(
    '[data-testid=game-backgammon] :is([data-testid^=point-], [data-testid^=bar-], [data-testid^=off-])'
)].map((e) => {
    const label = e.getAttribute('aria-label') ?? e.textContent.trim();
    return `${e.dataset.testid}=${label.replace(/^.* \\(/, '(')}`;
})"""
"""Every point, bar and tray as the page labels it (a tray's owner's name, "you" on its own page, cut)."""


def to_move(seats: list[Seat]) -> Seat:
    """The seat whose page offers a checker to pick or the pass (waits for one of them to)."""
    page = seats[0].page
    for _ in range(300):
        for seat in seats:
            if seat.page.locator(ORIGINS).count() or seat.page.locator(tid("pass")).count():
                return seat
        page.wait_for_timeout(50)
    msg = "neither seat can move"
    raise AssertionError(msg)


def test_backgammon_two_human_seats_play_each_other_and_see_the_same_board_and_dice(
    server: Server, open_seat: OpenSeat
) -> None:
    ann, bob = open_seat("ann"), open_seat("bob")
    ann.goto("/")
    ann.page.click(tid("game-backgammon"))
    ann.page.fill(tid("seat-name-0"), "Ann")
    ann.page.click(tid("create-submit"))
    ann.wait_live()
    match_id = ann.page.locator(tid("match-page")).get_attribute("data-match-id")
    href = ann.page.get_attribute(tid("join-link-p2"), "href")
    assert match_id and href
    bob.join(href, "Bob")
    bob.wait_live()
    seats = [ann, bob]
    movers: list[str] = []
    for move in range(TWO_SEAT_MOVES):
        mover = to_move(seats)
        other = bob if mover is ann else ann
        assert not other.page.locator(ORIGINS).count() and not other.page.locator(tid("pass")).count()
        dice = mover.page.locator(tid("dice")).get_attribute("aria-label") or ""
        assert re.fullmatch(r"dice: [1-6] and [1-6]", dice), dice  # the roll of the turn, shown
        expect(other.page.locator(tid("dice"))).to_have_attribute("aria-label", dice)
        make_a_move(mover, keyboard=move % 2 == 1, check_a11y=move in {0, 9})
        other.wait_index(mover.index())
        assert ann.page.evaluate(BOARD) == bob.page.evaluate(BOARD)  # one board, seen alike
        movers.append(mover.name)
    assert {"ann", "bob"} <= set(movers), movers  # both seats moved, turn by turn
    changes = sum(1 for a, b in pairwise(movers) if a != b)
    assert changes >= 4, movers  # the turn passed back and forth
    info = server.match(match_id)
    assert info["status"] in {"in_progress", "finished"}
    entries = bob.page.locator(tid("log-entry")).all_inner_texts()
    assert any(" Ann moved " in entry for entry in entries), entries[:5]  # the other seat, by name
    assert any(" you moved " in entry for entry in entries), entries[:5]  # Bob's own moves
