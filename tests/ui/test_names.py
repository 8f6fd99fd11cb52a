"""Seat names are text, never markup: a name full of HTML shows as typed in the lobby and on the
match page, and nothing of it runs or becomes an element (the server only refuses control
characters; escaping is the UI's job)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import Seat, Server, tid

pytestmark = pytest.mark.browser

MARKUP = '<img src=x onerror="window.__pwned=1"><b>Bo</b>'
SCRIPT = "<script>window.__pwned=2</script>&amp;"


def _untouched(seat: Seat) -> None:
    assert seat.page.evaluate("() => window.__pwned === undefined")
    assert seat.page.locator("img[src='x'], script:has-text('__pwned'), b:text-is('Bo')").count() == 0


def test_names_with_markup_show_as_text_in_the_lobby_and_the_match_page(
    server: Server, open_seat: Callable[[str], Seat]
) -> None:
    match_id = server.create_match("tic-tac-toe", [{"name": MARKUP}, {"name": "Cy"}])
    claimed = server.api.post(f"/api/matches/{match_id}/seats/p2", json={"name": SCRIPT})
    assert claimed.status_code == 201, claimed.text
    viewer = open_seat("viewer")
    viewer.goto("/")
    expect(viewer.page.get_by_text(SCRIPT, exact=False).first).to_be_visible()
    _untouched(viewer)
    viewer.goto(f"#/match/{match_id}")
    expect(viewer.page.locator(tid("seat-p1"))).to_contain_text(MARKUP)
    expect(viewer.page.locator(tid("seat-p2"))).to_contain_text(SCRIPT)
    _untouched(viewer)
