"""The history viewer and the rematch in real browsers: stepping through a finished match by buttons
and keys, a seat's rematch, the other seat claiming its seat, a spectator following the link."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import Seat, Server, tid

from tests.ui.test_matches import join_by_link, open_match_from_lobby, watch

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]


def _finished_tic_tac_toe(ann: Seat, bob: Seat) -> None:
    moves = [(ann, 0, 0), (bob, 1, 0), (ann, 0, 1), (bob, 1, 1), (ann, 0, 2)]
    for number, (mover, x, y) in enumerate(moves, start=1):
        mover.page.click(tid(f"cell-{x}-{y}"))
        ann.wait_index(number)
        bob.wait_index(number)
    expect(ann.page.locator(tid("result"))).to_contain_text("you win")


def test_history_steps_by_buttons_and_keys_and_rematch_moves_everyone_on(
    server: Server, open_seat: OpenSeat
) -> None:
    ann, bob, watcher = open_seat("ann"), open_seat("bob"), open_seat("watcher")
    match_id = open_match_from_lobby(ann, "tic-tac-toe", ["Ann", "Bob"])
    join_by_link(ann, bob, "p2")
    watch(ann, watcher)
    _finished_tic_tac_toe(ann, bob)

    position = bob.page.locator(tid("history-position"))
    expect(position).to_have_attribute("data-at", "live")
    bob.page.click(tid("history-start"))
    expect(position).to_have_attribute("data-at", "0")
    bob.page.click(tid("history-forward"))
    expect(position).to_have_attribute("data-at", "1")
    expect(bob.page.locator(tid("history-banner"))).to_have_attribute("data-at", "1")
    assert server_history(server, match_id, 1)["board"]["cells"][0][0] == "p1"
    expect(bob.page.locator(tid("cell-0-0"))).to_have_attribute("data-mark", "X")  # the past on the board
    expect(bob.page.locator(tid("cell-1-0"))).to_have_attribute("data-mark", "")
    bob.page.locator(tid("history-keys")).focus()
    bob.page.keyboard.press("ArrowRight")
    expect(position).to_have_attribute("data-at", "2")
    bob.page.keyboard.press("ArrowLeft")
    expect(position).to_have_attribute("data-at", "1")
    bob.page.keyboard.press("End")
    expect(position).to_have_attribute("data-at", "5")
    bob.page.keyboard.press("Home")
    expect(position).to_have_attribute("data-at", "0")
    bob.page.click(tid("history-live"))
    expect(position).to_have_attribute("data-at", "live")
    watcher.page.click(tid("history-replay"))  # a finished match plays as a replay
    expect(watcher.page.locator(tid("history-position"))).to_have_attribute("data-at", "2", timeout=15_000)
    expect(watcher.page.locator(tid("rematch"))).to_have_count(0)  # spectators cannot ask
    watcher.page.click(tid("fairness") + " summary")
    watcher.page.click(tid("verify-link"))
    verdict = watcher.page.locator(tid("verify-result"))
    expect(verdict).to_have_attribute("data-verified", "true")
    expect(verdict).to_contain_text("5 actions")
    expect(verdict).to_contain_text("the spectator log is their projection")

    ann.page.click(tid("rematch"))
    expect(ann.page.locator(tid("match-page"))).not_to_have_attribute("data-match-id", match_id)
    new_id = ann.page.locator(tid("match-page")).get_attribute("data-match-id")
    assert new_id and new_id != match_id
    expect(ann.page.locator(tid("whoami"))).to_have_text("You play seat p1")
    info: Any = server.match(new_id)
    assert info["rematch"] == {"previous": match_id, "next": None}
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bob"]

    expect(watcher.page.locator(tid("rematch-link"))).to_have_text(new_id, timeout=15_000)
    expect(bob.page.locator(tid("rematch-link"))).to_have_text(new_id, timeout=15_000)
    bob.page.click(tid("rematch-link"))  # claims Bob's seat of the rematch with his old token
    expect(bob.page.locator(tid("match-page"))).to_have_attribute("data-match-id", new_id)
    expect(bob.page.locator(tid("whoami"))).to_have_text("You play seat p2")
    bob.wait_live()
    ann.page.click(tid("cell-1-1"))
    expect(bob.page.locator(tid("cell-1-1"))).to_have_attribute("data-mark", "X")


def server_history(server: Server, match_id: str, index: int) -> Any:
    """The spectator's view after ``index`` actions, as the API answers it."""
    return server.api.get(f"/api/matches/{match_id}/history/{index}").json()["view"]


NOTIFICATIONS = """
(() => {
  const Real = window.Notification;
  window.__notifications = [];
  window.Notification = new Proxy(Real, {
    construct(target, args) {
      window.__notifications.push(args[0]);
      return new target(...args);
    },
  });
  // The player is in another tab: the page is hidden.
  Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
})();
"""
"""Records the system notifications the page raises (through the real API) while it is hidden."""


def test_a_seat_that_allows_it_gets_a_system_notification_on_its_turn(
    server: Server, open_seat: OpenSeat
) -> None:
    ann, bob = open_seat("ann"), open_seat("bob")
    bob.context.grant_permissions(["notifications"], origin=server.url)
    bob.context.add_init_script(NOTIFICATIONS)
    open_match_from_lobby(ann, "tic-tac-toe", ["Ann", "Bob"])
    join_by_link(ann, bob, "p2")
    bob.page.click(tid("notify"))
    expect(bob.page.locator(tid("notify"))).to_have_count(0)  # allowed: the offer is gone
    assert bob.page.evaluate("window.__notifications") == []
    ann.page.click(tid("cell-0-0"))
    bob.wait_index(1)
    bob.page.wait_for_function("window.__notifications.length === 1")
    assert bob.page.evaluate("window.__notifications") == ["Your turn: Tic-tac-toe"]
    assert ann.page.locator(tid("notify")).count() == 1  # Ann did not allow it: nothing is raised for her
