"""The history viewer draws the past on the game's own board: stepping back through a tic-tac-toe
match (live, then finished and replayed) and a Go Fish match on a 320 px phone shows each past
position read-only (no control enabled, nothing sent), labelled "Move N of M" with the move's log
entry and announced politely; the Go Fish seat sees only its own past hand; "Back to live" brings
the live board back. axe finds nothing on a past board."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from playwright.sync_api import Request, expect
from tabletop_fixtures.axe import axe_violations
from tabletop_fixtures.browser import Seat, Server, tid, walk_json

from tests.ui.test_accessibility import play_through_the_api
from tests.ui.test_hidden_information import other_hands_shown
from tests.ui.test_matches import join_by_link, open_match_from_lobby, watch
from tests.ui.test_narrow import SIDEWAYS

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]

ENABLED_IN_TABLE = """(table) => [...table.querySelectorAll('button, input, select, textarea')]
  .filter((control) => !control.disabled && control.getAttribute('aria-disabled') !== 'true')
  .map((control) => control.dataset.testid || control.textContent.trim())"""
"""The move controls of a game's table that can be used (none on a past board)."""


def marks(seat: Seat) -> dict[str, str]:
    """The tic-tac-toe board as the page shows it: each marked square's mark."""
    found: dict[str, str] = seat.page.locator('[data-testid^="cell-"]').evaluate_all(
        "(cells) => Object.fromEntries(cells.filter((c) => c.dataset.mark)"
        ".map((c) => [c.dataset.testid, c.dataset.mark]))"
    )
    return found


def at_move(seat: Seat, index: int, head: int) -> None:
    """Waits until the board shows the position after ``index`` of ``head`` actions."""
    banner = seat.page.locator(tid("history-banner"))
    expect(banner).to_have_attribute("data-at", str(index))
    expect(banner).to_contain_text(f"Move {index} of {head}")
    expect(seat.page.locator(tid("history-position"))).to_contain_text(f"Move {index} of {head}")


def test_tic_tac_toe_past_positions_on_the_board_read_only_then_back_to_live_and_a_replay(
    server: Server, open_seat: OpenSeat
) -> None:
    ann, bob, watcher = open_seat("ann"), open_seat("bob"), open_seat("watcher")
    open_match_from_lobby(ann, "tic-tac-toe", ["Ann", "Bob"])
    join_by_link(ann, bob, "p2")
    watch(ann, watcher)
    for number, (mover, x, y) in enumerate([(ann, 0, 0), (bob, 1, 0), (ann, 0, 1)], start=1):
        mover.page.click(tid(f"cell-{x}-{y}"))
        ann.wait_index(number)
        bob.wait_index(number)
    sent: list[str] = []

    def record(request: Request) -> None:
        if request.method == "POST":
            sent.append(request.url)

    bob.page.on("request", record)
    game = bob.page.locator(tid("game-tic-tac-toe"))
    expect(bob.page.locator(tid("match-page"))).to_have_attribute("data-my-turn", "true")
    assert game.evaluate(ENABLED_IN_TABLE) != []  # live, on Bob's turn: the free squares are playable
    assert marks(bob) == {"cell-0-0": "X", "cell-1-0": "O", "cell-0-1": "X"}

    bob.page.click(tid("history-back"))
    at_move(bob, 2, 3)
    expect(bob.page.locator(tid("history-banner"))).to_contain_text("you marked b1")  # Bob's own move 2
    assert marks(bob) == {"cell-0-0": "X", "cell-1-0": "O"}  # Ann's third mark is not there yet
    assert game.evaluate(ENABLED_IN_TABLE) == []
    bob.page.click(tid("cell-2-2"), force=True)  # a square free then and now: nothing is played from the past
    assert axe_violations(bob.page) == []
    bob.page.locator(tid("history-keys")).focus()
    bob.page.keyboard.press("ArrowLeft")
    at_move(bob, 1, 3)
    assert marks(bob) == {"cell-0-0": "X"}
    bob.page.keyboard.press("Home")
    at_move(bob, 0, 3)
    expect(bob.page.locator(tid("history-banner"))).to_contain_text("the start")
    assert marks(bob) == {}
    assert game.evaluate(ENABLED_IN_TABLE) == []
    assert axe_violations(bob.page) == []
    assert sent == [], "a past board sent a request"
    assert bob.index() == 3

    bob.page.click(tid("history-banner-live"))  # back to live from the board itself
    expect(bob.page.locator(tid("history-banner"))).to_have_count(0)
    expect(bob.page.locator(tid("history-position"))).to_have_attribute("data-at", "live")
    assert marks(bob) == {"cell-0-0": "X", "cell-1-0": "O", "cell-0-1": "X"}
    bob.page.click(tid("cell-1-1"))  # the live board plays again
    bob.wait_index(4)
    ann.page.click(tid("cell-0-2"))
    for seat in (ann, bob, watcher):
        expect(seat.page.locator(tid("result"))).to_contain_text("win")
        seat.wait_index(5)

    # A finished match is watched as a replay on its board, move by move, to its end.
    watcher.page.click(tid("history-replay"))
    for index in (1, 2, 5):
        watcher.page.wait_for_function(
            """(n) => {
              const board = document.querySelector('[data-testid=board]');
              const cells = [...board.querySelectorAll('[data-testid^="cell-"]')];
              const marked = cells.filter((c) => c.dataset.mark);
              return board.dataset.history === String(n) && marked.length === n;
            }""",
            arg=index,
            timeout=15_000,
        )
    assert watcher.page.locator(tid("game-tic-tac-toe")).evaluate(ENABLED_IN_TABLE) == []
    assert axe_violations(watcher.page) == []
    watcher.page.click(tid("history-live"))
    expect(watcher.page.locator(tid("history-banner"))).to_have_count(0)
    assert len(marks(watcher)) == 5


def test_go_fish_past_hands_on_a_320_px_phone_are_the_seats_own(
    server: Server, open_narrow_seat: OpenSeat
) -> None:
    match_id = server.create_match("go-fish", [{"name": "Ann"}, {"name": "Bot", "bot": {"kind": "random"}}])
    joined = server.api.post(f"/api/matches/{match_id}/seats/p1", json={})
    assert joined.status_code == 201, joined.text
    token = joined.json()["token"]
    ann = open_narrow_seat("ann")
    seat = json.dumps({"playerId": "p1", "token": token})
    ann.context.add_init_script(f"localStorage.setItem('tabletop.seat.{match_id}', {json.dumps(seat)})")
    ann.goto(f"#/match/{match_id}")
    ann.wait_live()
    play_through_the_api(server, match_id, token, random.Random("history"), 3)
    ann.page.wait_for_function(  # the bot has answered: the match stands still while Ann looks back
        "() => document.querySelector('[data-testid=match-page]').dataset.myTurn === 'true'", timeout=60_000
    )
    head = int(str(server.match(match_id)["index"]))
    assert head >= 3
    ann.wait_index(head)

    def hand_shown() -> list[str]:
        cards: list[str] = ann.page.locator(f'{tid("board")} [data-testid^="card-"]').evaluate_all(
            "(cards) => cards.map((card) => card.dataset.testid)"
        )
        in_hand = ann.page.locator(f'{tid("hand")} [data-testid^="card-"]').count()
        assert in_hand == len(cards), "a card outside the seat's own hand is on the board"
        return sorted(cards)

    def hand_then(index: int) -> list[str]:
        answer = server.api.get(
            f"/api/matches/{match_id}/history/{index}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        [mine] = [player for player in answer["view"]["players"] if player["player_id"] == "p1"]
        return sorted(f"card-{card['rank']}-{card['suit']}" for card in mine["hand"])

    live = hand_shown()
    assert live == hand_then(head)
    game = ann.page.locator(tid("game-go-fish"))
    past_hands: list[list[str]] = []
    for index in range(head - 1, -1, -1):
        ann.page.click(tid("history-back"))
        at_move(ann, index, head)
        shown = hand_shown()
        assert shown == hand_then(index)
        past_hands.append(shown)
        assert game.evaluate(ENABLED_IN_TABLE) == []
        expect(ann.page.locator('[data-testid^="ask-"]')).to_have_count(0)
    assert any(hand != live for hand in past_hands), "every past hand is the live one: the test cannot fail"
    assert ann.page.evaluate(SIDEWAYS) <= 0, "a past board scrolls sideways at 320 px"
    assert axe_violations(ann.page) == []
    for value in walk_json(ann.received()):
        assert list(other_hands_shown(value, "p1")) == [], "the page received the bot's hand"

    ann.page.click(tid("history-banner-live"))
    expect(ann.page.locator(tid("board"))).to_have_attribute("data-history", "live")
    assert hand_shown() == live
