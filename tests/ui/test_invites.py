"""Private matches in the browser: the creator's page shows invite links, a player joins by one, a
stranger without it cannot take the seat nor find the match in the lobby, and the creator ends
the match."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]


def test_a_private_match_is_joined_by_its_invite_link_only(server: Server, open_seat: OpenSeat) -> None:
    ann, bob, carl = open_seat("ann"), open_seat("bob"), open_seat("carl")
    ann.goto("/")
    ann.page.click(tid("game-tic-tac-toe"))
    expect(ann.page.locator(tid("create-private"))).to_be_checked()  # private unless chosen otherwise
    ann.page.fill(tid("seat-name-0"), "Ann")
    ann.page.click(tid("create-submit"))
    page = ann.page.locator(tid("match-page"))
    expect(page).to_be_visible()
    expect(ann.page.locator(tid("whoami"))).to_have_text("You play seat p1")
    match_id = page.get_attribute("data-match-id")
    assert match_id
    assert server.match(match_id)["visibility"] == "private"
    invite_link = ann.page.get_attribute(tid("join-link-p2"), "href")
    assert invite_link and invite_link.startswith(f"#/match/{match_id}/join/p2/")

    carl.join(f"#/match/{match_id}/join/p2")  # the seat's link without its invite
    expect(carl.page.locator(tid("error"))).to_have_attribute("data-code", "invite-required")
    expect(carl.page.locator(tid("watch-instead"))).to_be_visible()
    carl.goto("/")
    expect(carl.page.locator(tid("matches"))).to_be_visible()
    expect(carl.page.locator(tid(f"match-{match_id}"))).to_have_count(0)  # not listed

    bob.join(invite_link)
    expect(bob.page.locator(tid("whoami"))).to_have_text("You play seat p2")
    bob.wait_live()
    ann.wait_live()
    expect(ann.page.locator(tid("seat-p2"))).to_contain_text("taken", timeout=10_000)
    ann.page.click(tid("cell-1-1"))
    bob.wait_index(1)

    ann.page.click(tid("end-match"))
    expect(ann.page.locator(tid("match-ended"))).to_be_visible()
    expect(page).to_have_attribute("data-status", "ended")
    assert server.match(match_id)["status"] == "ended"
    expect(ann.page.locator(tid("end-match"))).to_have_count(0)
