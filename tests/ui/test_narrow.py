"""The narrowest screen the app supports, 320 px: the lobby, the join page and every game's match
page fit (nothing scrolls sideways) and the table's controls are not covered."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop.games import load
from tabletop_fixtures.browser import Seat, Server, tid
from tabletop_fixtures.game_uis import UI_GAMES

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]

SIDEWAYS = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"

UNCOVERED = """() => [...document.querySelectorAll('[data-testid=board] button:not(:disabled)')]
  .filter((control) => {
    control.scrollIntoView({block: 'center', inline: 'center'});
    const box = control.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return !hit || !(hit === control || control.contains(hit));
  })
  .map((control) => control.dataset.testid || control.textContent.trim())"""


@pytest.mark.parametrize("game", UI_GAMES)
def test_every_page_fits_a_320_px_screen(game: str, server: Server, open_narrow_seat: OpenSeat) -> None:
    definition = load(game)
    seats: list[dict[str, object]] = [{"name": "Ann"}]
    seats += [
        {"name": f"Bot {n}", "bot": {"kind": "random"}} for n in range(2, max(2, definition.min_players) + 1)
    ]
    match_id = server.create_match(game, seats)
    ann = open_narrow_seat("ann")
    ann.goto("/")
    ann.page.click(tid(f"game-{game}"))
    expect(ann.page.locator(tid("create-form"))).to_be_visible()
    assert ann.page.evaluate(SIDEWAYS) <= 0, "the lobby scrolls sideways"
    ann.goto(f"#/match/{match_id}/join/p1")
    expect(ann.page.locator(tid("join-submit"))).to_be_enabled()
    assert ann.page.evaluate(SIDEWAYS) <= 0, "the join page scrolls sideways"
    ann.page.click(tid("join-submit"))
    ann.wait_live()
    expect(ann.page.locator(tid(f"game-{game}"))).to_be_visible()
    ann.page.wait_for_function(
        "() => { const p = document.querySelector('[data-testid=match-page]');"
        " return p.dataset.myTurn === 'true' || p.dataset.status !== 'in_progress'; }",
        timeout=60_000,
    )
    assert ann.page.evaluate(SIDEWAYS) <= 0, f"{game}'s match page scrolls sideways"
    assert ann.page.evaluate(UNCOVERED) == []
