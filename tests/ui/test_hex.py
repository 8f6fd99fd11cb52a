"""Hex in the browser: two seats to the end by mouse and keyboard, and a human against a bot on a phone."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Browser, expect
from tabletop_fixtures.browser import RECORDER, ROOT, Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]

AXE = ROOT / "games-ui" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, a dev dependency of games-ui (installed by ``npm ci``)."""

PLAYABLE = '[data-testid^="cell-"][aria-disabled="false"]'


def axe_violations(seat: Seat) -> list[str]:
    """What axe-core finds wrong with the Hex table (rule ids and the elements), empty if nothing."""
    assert AXE.is_file(), f"{AXE} is missing: run npm ci in games-ui"
    if not seat.page.evaluate("typeof window.axe !== 'undefined'"):
        seat.page.add_script_tag(path=str(AXE))
    found: list[str] = seat.page.evaluate(
        """async () => {
            const result = await window.axe.run(document.querySelector('[data-testid=game-hex]'));
            const where = (v) => v.nodes.map((n) => n.target.join(' ')).join(', ');
            return result.violations.map((v) => `${v.id}: ${where(v)}`);
        }"""
    )
    return found


def create(ann: Seat, size: str, *, bot: bool = False) -> str:
    """Creates a Hex match in the lobby with ``ann`` in the first seat; returns the match id."""
    ann.goto("/")
    ann.page.click(tid("game-hex"))
    ann.page.fill(tid("seat-name-0"), "Ann")
    if bot:
        ann.page.select_option(tid("seat-kind-1"), "random")
    else:
        ann.page.fill(tid("seat-name-1"), "Bob")
    ann.page.fill(tid("config-board_size"), size)
    ann.page.click(tid("create-submit"))
    page = ann.page.locator(tid("match-page"))
    expect(page).to_be_visible()
    ann.wait_live()
    match_id = page.get_attribute("data-match-id")
    assert match_id
    return match_id


def test_hex_two_seats_play_to_a_winning_chain_by_mouse_and_keyboard(
    server: Server, open_seat: OpenSeat
) -> None:
    ann, bob = open_seat("ann"), open_seat("bob")
    match_id = create(ann, "3")
    href = ann.page.get_attribute(tid("join-link-p2"), "href")
    assert href
    bob.join(href)
    bob.wait_live()
    expect(ann.page.locator('[data-testid^="cell-"]')).to_have_count(9)
    expect(ann.page.locator(tid("cell-c3"))).to_have_attribute("aria-label", "c3, empty")
    expect(ann.page.locator(PLAYABLE)).to_have_count(9)
    expect(bob.page.locator(PLAYABLE)).to_have_count(0)  # not bob's turn

    # Ann (blue, top to bottom) plays down column b; Bob (red) down column a, by keyboard.
    ann.page.click(tid("cell-b1"))
    bob.wait_index(1)
    bob.page.focus(tid("cell-b1"))
    bob.page.keyboard.press("ArrowLeft")  # b1 -> a1
    expect(bob.page.locator(tid("cell-a1"))).to_be_focused()
    bob.page.keyboard.press("Enter")
    ann.wait_index(2)
    ann.page.click(tid("cell-b2"))
    bob.wait_index(3)
    bob.page.focus(tid("cell-a1"))
    bob.page.keyboard.press("ArrowDown")  # a1 -> a2
    bob.page.keyboard.press(" ")
    ann.wait_index(4)
    assert axe_violations(ann) == [] and axe_violations(bob) == []
    ann.page.focus(tid("cell-b2"))
    ann.page.keyboard.press("ArrowDown")
    ann.page.keyboard.press("Enter")  # b3 joins the top and the bottom

    for seat, text, ann_is in ((ann, "you win", "you"), (bob, "Ann wins", "Ann")):
        expect(seat.page.locator(tid("result"))).to_contain_text(text)
        for name in ("b1", "b2", "b3"):
            expect(seat.page.locator(tid(f"cell-{name}"))).to_have_attribute("data-chain", "true")
        expect(seat.page.locator('[data-chain="true"]')).to_have_count(3)
        expect(seat.page.locator(tid("cell-b3"))).to_have_attribute(
            "aria-label", f"b3, blue, {ann_is}, winning chain"
        )
        expect(seat.page.locator(tid("log-entry")).last).to_contain_text("placed a stone on b3")
        expect(seat.page.locator(PLAYABLE)).to_have_count(0)
        assert axe_violations(seat) == []
    info = server.match(match_id)
    assert (info["status"], info["result"], info["winners"]) == ("finished", "win", ["p1"])


@pytest.fixture
def phone_seat(browser: Browser, server: Server) -> Iterator[Seat]:
    """A seat on a 390 x 844 touch screen."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.add_init_script(RECORDER)
    context.set_default_timeout(10_000)
    yield Seat(name="ann", context=context, page=context.new_page(), server_url=server.url)
    context.close()


def _no_sideways_page_scroll(seat: Seat) -> bool:
    return bool(seat.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_hex_11x11_human_against_a_bot_on_a_390_px_phone(server: Server, phone_seat: Seat) -> None:
    ann = phone_seat
    match_id = create(ann, "11", bot=True)
    expect(ann.page.locator('[data-testid^="cell-"]')).to_have_count(121)
    assert _no_sideways_page_scroll(ann)
    # Full-size cells are tap targets of 44 px or more; the board area scrolls, the page does not.
    box = ann.page.locator(tid("cell-f6")).bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44
    area = ann.page.locator(tid("board-area"))
    assert area.evaluate("(el) => el.scrollWidth > el.clientWidth")
    ann.page.click(tid("fit"))  # the whole board on screen
    svg_width = area.evaluate("(el) => el.querySelector('svg').getBoundingClientRect().width")
    assert svg_width <= 390 and area.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    ann.page.click(tid("fit"))
    assert axe_violations(ann) == []
    ann.mark_no_reload()

    moves = 0
    ready = (
        "() => document.querySelector('[data-testid=match-page]')?.dataset.status === 'finished'"
        f" || document.querySelector('{PLAYABLE}') !== null"
    )
    while ann.page.locator(tid("match-page")).get_attribute("data-status") != "finished":
        ann.page.wait_for_function(ready, timeout=30_000)
        if ann.page.locator(tid("match-page")).get_attribute("data-status") == "finished":
            break
        moves += 1
        assert moves <= 61, "the match did not end"
        before = ann.index()
        ann.page.locator(PLAYABLE).first.tap()
        ann.wait_index(before + 1, timeout=30_000)
        assert _no_sideways_page_scroll(ann)

    info = server.match(match_id)
    assert info["status"] == "finished" and info["result"] == "win"
    expect(ann.page.locator(tid("result"))).to_contain_text("Game over")
    assert ann.page.locator('[data-chain="true"]').count() >= 11  # a chain across 11 rows or columns
    assert axe_violations(ann) == []
    assert _no_sideways_page_scroll(ann)
    assert not ann.reloaded()


def test_hex_11x11_fits_a_320_px_screen_without_sideways_page_scroll(
    server: Server, open_seat: OpenSeat, open_narrow_seat: OpenSeat
) -> None:
    ann, bob = open_seat("ann"), open_narrow_seat("bob")
    create(ann, "11")
    href = ann.page.get_attribute(tid("join-link-p2"), "href")
    assert href
    bob.join(href)
    bob.wait_live()
    expect(bob.page.locator('[data-testid^="cell-"]')).to_have_count(121)
    assert _no_sideways_page_scroll(bob)
    area = bob.page.locator(tid("board-area"))
    assert area.evaluate("(el) => el.getBoundingClientRect().right <= window.innerWidth")
    ann.page.click(tid("cell-a1"))
    bob.wait_index(1)
    box = bob.page.locator(tid("cell-k11")).bounding_box()
    assert box is not None and box["width"] >= 44  # a full-size tap target, reached by scrolling the board
    bob.page.locator(tid("cell-k11")).tap()
    bob.wait_index(2)
    expect(bob.page.locator(tid("cell-k11"))).to_have_attribute("data-stone", "red")
    assert _no_sideways_page_scroll(bob)
    bob.page.click(tid("fit"))
    assert area.evaluate("(el) => el.scrollWidth <= el.clientWidth")
    assert axe_violations(bob) == []
