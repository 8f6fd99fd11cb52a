"""Whole matches played by clicking in real browsers: two seats and a spectator per match, each
seeing the other's moves arrive without reloading; a human against a bot; reload and reconnect."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import Seat, Server, tid

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]


def open_match_from_lobby(
    ann: Seat, game: str, names: list[str], config: dict[str, str] | None = None
) -> str:
    """Creates a match in the lobby with ``ann`` taking the first seat; returns the match id."""
    ann.goto("/")
    ann.page.click(tid(f"game-{game}"))
    for position, name in enumerate(names):
        ann.page.fill(tid(f"seat-name-{position}"), name)
    for option, value in (config or {}).items():
        ann.page.fill(tid(f"config-{option}"), value)
    ann.page.click(tid("create-submit"))
    page = ann.page.locator(tid("match-page"))
    expect(page).to_be_visible()
    ann.wait_live()
    expect(ann.page.locator(tid("whoami"))).to_have_text("You play seat p1")
    match_id = page.get_attribute("data-match-id")
    assert match_id
    return match_id


def join_by_link(host: Seat, guest: Seat, player_id: str) -> None:
    """``guest`` opens the join link ``host``'s page shows for ``player_id``."""
    href = host.page.get_attribute(tid(f"join-link-{player_id}"), "href")
    assert href and href.startswith("#/match/")
    guest.join(href)
    expect(guest.page.locator(tid("whoami"))).to_have_text(f"You play seat {player_id}")
    guest.wait_live()


def watch(host: Seat, watcher: Seat) -> None:
    """``watcher`` opens the spectator link ``host``'s page shows."""
    href = host.page.get_attribute(tid("spectate-link"), "href")
    assert href
    watcher.goto(href)
    expect(watcher.page.locator(tid("whoami"))).to_have_text("You are watching")
    watcher.wait_live()


def test_tic_tac_toe_two_seats_and_a_spectator_play_to_the_end(server: Server, open_seat: OpenSeat) -> None:
    ann, bob, watcher = open_seat("ann"), open_seat("bob"), open_seat("watcher")
    match_id = open_match_from_lobby(ann, "tic-tac-toe", ["Ann", "Bob"])
    join_by_link(ann, bob, "p2")
    watch(ann, watcher)
    everyone = (ann, bob, watcher)
    for seat in everyone:
        seat.mark_no_reload()

    moves = [(ann, 0, 0, "X"), (bob, 1, 0, "O"), (ann, 0, 1, "X"), (bob, 1, 1, "O"), (ann, 0, 2, "X")]
    for number, (mover, x, y, mark) in enumerate(moves, start=1):
        mover.page.click(tid(f"cell-{x}-{y}"))  # waits until the square is offered: the move arrived
        for seat in everyone:
            expect(seat.page.locator(tid(f"cell-{x}-{y}"))).to_have_attribute("data-mark", mark)
            seat.wait_index(number)
        if number == 3:
            bob.screenshot("tic-tac-toe")
            # only the seat on turn is offered squares, and only empty ones (the others stay
            # focusable for the arrow keys, marked aria-disabled)
            offered = '[data-testid^="cell-"]:not([aria-disabled="true"])'
            assert ann.page.locator(offered).count() == 0
            assert bob.page.locator(offered).count() == 6
            assert watcher.page.locator(offered).count() == 0

    expect(ann.page.locator(tid("result"))).to_contain_text("you win")
    expect(bob.page.locator(tid("result"))).to_contain_text("Ann wins")
    expect(watcher.page.locator(tid("result"))).to_contain_text("Ann wins")
    for seat in everyone:
        expect(seat.page.locator(tid("log-entry"))).to_have_count(5)
        expect(seat.page.locator(tid("log-entry")).last).to_contain_text("marked a3")
        assert not seat.reloaded()
    info = server.match(match_id)
    assert (info["status"], info["result"], info["winners"]) == ("finished", "win", ["p1"])


def test_goofspiel_simultaneous_bids_with_a_reload_mid_match(server: Server, open_seat: OpenSeat) -> None:
    ann, bob, watcher = open_seat("ann"), open_seat("bob"), open_seat("watcher")
    match_id = open_match_from_lobby(ann, "goofspiel", ["Ann", "Bob"], config={"cards": "5"})
    assert server.match(match_id)["config"] == {"cards": 5, "points_order": "random"}  # the default order
    join_by_link(ann, bob, "p2")
    watch(ann, watcher)
    for seat in (bob, watcher):
        seat.mark_no_reload()

    for round_number in range(1, 6):
        prize = int(watcher.page.inner_text(tid("prize")))
        # Ann bids the prize's own card when she still has it, Bob his highest card.
        ann_cards = [int(c) for c in ann.page.locator('[data-testid^="bid-card-"]:enabled').all_inner_texts()]
        ann_bid = prize if prize in ann_cards else ann_cards[0]
        ann.page.click(tid(f"bid-card-{ann_bid}"))
        expect(ann.page.locator(tid("bid-p1"))).to_have_text(f"Bid {ann_bid} (sealed)")
        expect(bob.page.locator(tid("bid-p1"))).to_have_text("Has bid (sealed)")  # the card stays secret
        expect(watcher.page.locator(tid("bid-p1"))).to_have_text("Has bid (sealed)")
        if round_number == 3:
            # Ann reloads with her bid sealed: the seat, the bid and the log survive.
            log_before = ann.page.locator(tid("log-entry")).count()
            ann.page.reload()
            ann.wait_live()
            expect(ann.page.locator(tid("whoami"))).to_have_text("You play seat p1")
            expect(ann.page.locator(tid("bid-p1"))).to_have_text(f"Bid {ann_bid} (sealed)")
            expect(ann.page.locator(tid("log-entry"))).to_have_count(log_before)
            ann.screenshot("goofspiel")
        bob_cards = [int(c) for c in bob.page.locator('[data-testid^="bid-card-"]:enabled').all_inner_texts()]
        bob.page.click(tid(f"bid-card-{max(bob_cards)}"))
        for seat in (ann, bob, watcher):
            expect(seat.page.locator(f"{tid('rounds')} tbody tr")).to_have_count(round_number)

    for seat in (ann, bob, watcher):
        expect(seat.page.locator(tid("result"))).to_contain_text("Game over")
    assert not bob.reloaded() and not watcher.reloaded()
    info = server.match(match_id)
    assert info["status"] == "finished"
    # 5 rounds of a prize turned up by chance, two bids and a reveal, the same log on every page
    for seat in (ann, bob, watcher):
        expect(seat.page.locator(tid("log-entry"))).to_have_count(20)
        expect(seat.page.locator(tid("log-entry")).filter(has_text="came up")).to_have_count(5)
    scores = [int(ann.page.inner_text(tid(f"score-{p}"))) for p in ("p1", "p2")]
    assert sum(scores) <= 15 and scores == [
        int(watcher.page.inner_text(tid(f"score-{p}"))) for p in ("p1", "p2")
    ]


def test_pig_human_against_a_bot_to_the_end(server: Server, open_seat: OpenSeat) -> None:
    ann = open_seat("ann")
    ann.goto("/")
    ann.page.click(tid("game-pig"))
    ann.page.fill(tid("seat-name-0"), "Ann")
    ann.page.select_option(tid("seat-kind-1"), "random")
    ann.page.fill(tid("config-target"), "20")
    ann.page.click(tid("create-submit"))
    ann.wait_live()
    match_id = ann.page.locator(tid("match-page")).get_attribute("data-match-id")
    assert match_id
    expect(ann.page.locator(tid("seat-p2"))).to_contain_text("random bot")
    ann.mark_no_reload()

    turns = 0
    while ann.page.locator(tid("match-page")).get_attribute("data-status") != "finished":
        turns += 1
        assert turns < 400, "the match did not end"
        # Hold once the turn total is 6 or more, otherwise roll; the bot plays its turns server-side.
        roll, hold = ann.page.locator(tid("roll")), ann.page.locator(tid("hold"))
        ann.page.wait_for_function(
            "() => document.querySelector('[data-testid=match-page]').dataset.status === 'finished'"
            " || document.querySelector('[data-testid=roll]')?.disabled === false"
        )
        if ann.page.locator(tid("match-page")).get_attribute("data-status") == "finished":
            break
        before = ann.index()
        if int(ann.page.inner_text(tid("turn-total"))) >= 6 and hold.is_enabled():
            hold.click()
        else:
            roll.click()
        ann.wait_index(before + 1)
        if turns == 4:
            ann.screenshot("pig")

    info = server.match(match_id)
    assert info["status"] == "finished" and info["result"] == "win"
    expect(ann.page.locator(tid("result"))).to_contain_text("Game over")
    entries = ann.page.locator(tid("log-entry")).all_inner_texts()
    assert any("Random bot rolled" in entry for entry in entries), entries  # the bot played its turns
    assert not ann.reloaded()
