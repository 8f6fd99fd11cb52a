"""Each game's own table on a phone: keyboard play, focus kept on the table after a move, tap
targets of at least 44 px that nothing covers, nothing wider than the screen, and axe-core finding
no violation inside the table, at 320 and 390 px wide.

The seat is taken through the API (its token put where the app keeps it), so these tests depend
only on the game's table, not on how the app's join page works.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, expect
from tabletop.games import load
from tabletop_fixtures.browser import RECORDER, ROOT, Seat, Server, tid

pytestmark = pytest.mark.browser

GAMES = ["sample", "tic-tac-toe", "go-fish", "goofspiel", "pig", "gallery"]
WIDTHS = [320, 390]
MOVES = 3
"""Moves the human seat makes by keyboard in each test (fewer when the game ends first)."""

AXE = ROOT / "games-ui" / "node_modules" / "axe-core" / "axe.min.js"

USABLE = "button:not([disabled]):not([aria-disabled='true']), input:not([disabled])"

READY = """([table, usable]) => {
  if (document.querySelector('[data-testid=match-page]')?.dataset.status === 'finished') return true;
  return document.querySelector(table)?.querySelector(usable) != null;
}"""

LAYOUT = """(table) => {
  const problems = [];
  for (const control of table.querySelectorAll('button, input, select, a[href]')) {
    const name = control.dataset.testid || control.getAttribute('aria-label') || control.textContent.trim();
    control.scrollIntoView({ block: 'center', inline: 'center' });
    const box = control.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.width < 43.5 || box.height < 43.5) problems.push(`${name}: ${box.width}x${box.height} px`);
    if (box.left < -0.5 || box.right > window.innerWidth + 0.5) problems.push(`${name}: outside the screen`);
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || !(hit === control || control.contains(hit))) {
      problems.push(`${name}: covered by ${hit?.outerHTML.slice(0, 80)}`);
    }
  }
  if (table.scrollWidth > table.clientWidth + 1) {
    problems.push(`the table is ${table.scrollWidth} px wide in ${table.clientWidth}`);
  }
  const box = table.getBoundingClientRect();
  if (box.right > window.innerWidth + 0.5) problems.push(`the table ends at ${box.right} px`);
  return problems;
}"""

FOCUSED = """([table, usable]) => {
  const active = document.activeElement;
  const inside = document.querySelector(table)?.contains(active) ?? false;
  return {
    inside,
    usable: !!active && active.matches(usable),
    testid: active?.dataset?.testid ?? active?.tagName ?? null,
    outline: active ? getComputedStyle(active).outlineStyle : 'none',
  };
}"""


@pytest.fixture
def phone(browser: Browser, server: Server, request: pytest.FixtureRequest) -> Iterator[BrowserContext]:
    """A touch screen of the test's width (844 px tall)."""
    width: int = request.node.callspec.params["width"]
    context = browser.new_context(viewport={"width": width, "height": 844}, is_mobile=True, has_touch=True)
    context.add_init_script(RECORDER)
    context.set_default_timeout(15_000)
    yield context
    context.close()


def take_seat(server: Server, context: BrowserContext, game: str) -> tuple[Seat, str]:
    """A match of `game`: seat p1 held by this browser, every other seat a random bot."""
    definition = load(game)
    count = max(2, definition.min_players)
    seats: list[dict[str, object]] = [{"name": "Ann"}]
    seats += [{"name": f"Bot {n}", "bot": {"kind": "random"}} for n in range(2, count + 1)]
    match_id = server.create_match(game, seats)
    joined = server.api.post(f"/api/matches/{match_id}/seats/p1", json={"name": "Ann"})
    assert joined.status_code == 201, joined.text
    seat = {"playerId": "p1", "token": joined.json()["token"]}
    context.add_init_script(
        f"localStorage.setItem({json.dumps('tabletop.seat.' + match_id)}, {json.dumps(json.dumps(seat))})"
    )
    page = context.new_page()
    return Seat(name="ann", context=context, page=page, server_url=server.url), match_id


def axe_violations(seat: Seat, table: str) -> list[str]:
    """What axe-core finds wrong inside the table (rule ids and elements), empty if nothing."""
    assert AXE.is_file(), f"{AXE} is missing: run npm ci in games-ui"
    if not seat.page.evaluate("typeof window.axe !== 'undefined'"):
        seat.page.add_script_tag(path=str(AXE))
    found: list[str] = seat.page.evaluate(
        """async (table) => {
            const result = await window.axe.run(document.querySelector(table));
            const where = (v) => v.nodes.map((n) => n.target.join(' ')).join(', ');
            return result.violations.map((v) => `${v.id} (${v.impact}): ${where(v)}`);
        }""",
        table,
    )
    return found


def tab_to_a_move(seat: Seat, table: str) -> None:
    """Presses Tab from the top of the page until a control of the table that plays now has the
    focus; on a board (one tab stop) the arrow keys then walk to a playable cell."""
    page = seat.page
    page.evaluate("() => { document.activeElement?.blur(); window.scrollTo(0, 0); }")
    for _ in range(150):
        page.keyboard.press("Tab")
        state = page.evaluate(FOCUSED, [table, USABLE])
        if state["inside"] and state["usable"]:
            return
        if state["inside"] and page.evaluate(
            "() => document.activeElement?.closest('[data-testid=board]') != null"
        ):
            for _ in range(20):
                before = page.evaluate("() => document.activeElement?.dataset.testid")
                page.keyboard.press("ArrowRight")
                if page.evaluate("() => document.activeElement?.dataset.testid") == before:
                    page.keyboard.press("ArrowDown")
                    page.keyboard.press("Home")
                if page.evaluate(FOCUSED, [table, USABLE])["usable"]:
                    return
    raise AssertionError("no control of the table that plays now could be reached with Tab")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", GAMES)
def test_a_phone_plays_the_table_by_keyboard_and_axe_finds_nothing(
    game: str, width: int, server: Server, phone: BrowserContext
) -> None:
    seat, match_id = take_seat(server, phone, game)
    table = tid(f"game-{game}")
    seat.goto(f"#/match/{match_id}")
    expect(seat.page.locator(table)).to_be_visible()
    seat.wait_live()
    moves = 0
    while moves < MOVES:
        seat.page.wait_for_function(READY, arg=[table, USABLE], timeout=60_000)
        if seat.page.locator(tid("match-page")).get_attribute("data-status") == "finished":
            break
        problems = seat.page.locator(table).evaluate(LAYOUT)
        assert problems == [], f"{game} at {width} px: {problems}"
        assert axe_violations(seat, table) == [], f"{game} at {width} px"
        before = seat.index()
        tab_to_a_move(seat, table)
        focused = seat.page.evaluate(FOCUSED, [table, USABLE])
        assert focused["outline"] != "none", f"{game}: the focused control shows no focus ({focused})"
        seat.page.keyboard.press("Enter")
        seat.wait_index(before + 1, timeout=30_000)
        # after the move the focus stays on the table (not on the page's body)
        seat.page.wait_for_function(
            f"() => document.querySelector({json.dumps(table)})?.contains(document.activeElement)"
        )
        moves += 1
    assert moves > 0
    assert axe_violations(seat, table) == [], f"{game} at {width} px, after {moves} moves"
