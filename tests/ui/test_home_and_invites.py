"""The lobby as a home and invites that cannot be broken, in the browser: the creator waits for
players with a link to copy, opening their own invite link keeps their seat, the invitee chooses a
name, Back does not lead to the join page again; the tab's title and icon say whose turn it is, the
sound toggle is remembered, and "Your matches" shows the turn and names the winner."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]


def place(seat: Seat, x: int, y: int) -> None:
    before = seat.index()
    seat.page.click(tid(f"cell-{x}-{y}"))
    seat.wait_index(before + 1)


def test_an_invite_a_name_the_turn_and_the_winner(server: Server, open_seat: OpenSeat) -> None:
    ann, bob = open_seat("ann"), open_seat("bob")
    ann.context.grant_permissions(["clipboard-read", "clipboard-write"])
    ann.goto("/")
    ann.page.click(tid("game-tic-tac-toe"))
    ann.page.fill(tid("seat-name-0"), "Ann")
    ann.page.click(tid("create-submit"))
    ann.wait_live()
    match_id = ann.page.locator(tid("match-page")).get_attribute("data-match-id")
    assert match_id

    waiting = ann.page.locator(tid("waiting-for-players"))
    expect(waiting.locator(tid("missing"))).to_contain_text("seat p2")
    waiting.locator(tid("copy-p2")).click()
    expect(waiting.locator(tid("copy-p2-feedback"))).to_have_text(re.compile(r"Copied!|Copy it from the box"))
    invite = ann.page.get_attribute(tid("join-link-p2"), "href")
    assert invite and "/join/p2/" in invite

    ann.goto(invite)  # the creator opens their own invite link: they keep seat p1
    expect(ann.page.locator(tid("already-seated"))).to_be_visible()
    ann.page.click(tid("back-to-match"))
    expect(ann.page.locator(tid("whoami"))).to_have_text("You play seat p1")
    ann.wait_live()

    bob.goto("/")
    bob.join(invite, name="Bobby")  # the invitee chooses a name
    expect(bob.page.locator(tid("whoami"))).to_have_text("You play seat p2")
    bob.wait_live()
    bob.page.go_back()  # Back leads to where Bob was before the link, not to the join page
    expect(bob.page.locator(tid("games"))).to_be_visible()
    assert "/join/" not in bob.page.url
    bob.page.go_forward()
    bob.wait_live()
    expect(ann.page.locator(tid("seat-p2"))).to_contain_text("Bobby", timeout=15_000)
    expect(ann.page.locator(tid("waiting-for-players"))).to_have_count(0, timeout=15_000)

    # The tab's title and icon say whose turn it is; the sound is off until turned on.
    expect(ann.page).to_have_title(re.compile(r"^● Your turn · Tic-tac-toe"), timeout=15_000)
    expect(bob.page).not_to_have_title(re.compile("Your turn"))
    assert ann.page.get_attribute("link[rel=icon]", "data-turn") == "true"
    expect(bob.page.locator(tid("sound-toggle"))).to_have_attribute("aria-pressed", "false")
    bob.page.click(tid("sound-toggle"))
    expect(bob.page.locator(tid("sound-toggle"))).to_have_attribute("aria-pressed", "true")
    place(ann, 0, 0)
    expect(bob.page).to_have_title(re.compile(r"^● Your turn"), timeout=15_000)
    expect(ann.page).not_to_have_title(re.compile("Your turn"))
    assert ann.page.get_attribute("link[rel=icon]", "data-turn") == "false"
    bob.page.reload()
    bob.wait_live()
    expect(bob.page.locator(tid("sound-toggle"))).to_have_attribute("aria-pressed", "true")  # remembered

    # "Your matches": the turn badge, then the winner named.
    bob.goto("/")
    expect(bob.page.locator(tid(f"your-match-{match_id}")).locator(tid("your-turn-badge"))).to_be_visible()
    bob.goto(f"#/match/{match_id}")
    bob.wait_live()
    place(bob, 0, 1)
    place(ann, 1, 0)
    place(bob, 1, 1)
    place(ann, 2, 0)
    expect(ann.page.locator(tid("match-result"))).to_have_text("Game over: you win! (Ann)")
    expect(bob.page.locator(tid("match-result"))).to_have_text("Game over: Ann wins.")
    expect(bob.page.locator(tid("announcer"))).to_contain_text("Game over: Ann wins.")
    bob.goto("/")
    expect(bob.page.locator(tid(f"your-match-{match_id}"))).to_contain_text("Game over: Ann wins.")
    ann.goto("/")
    expect(ann.page.locator(tid(f"your-match-{match_id}"))).to_contain_text("Game over: you win!")
