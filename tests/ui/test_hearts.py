"""Hearts in the browser: a human plays a whole deal by keyboard on a 320 px screen against three
bots, axe-clean; and a second human seat never holds the first seat's hand in its page."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import ROOT, Seat, Server, tid, walk_json

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]
Card = tuple[str, str]
BOTS: list[dict[str, object]] = [{"name": f"Bot {n}", "bot": {"kind": "random"}} for n in (1, 2, 3)]
AXE = ROOT / "games-ui" / "node_modules" / "axe-core" / "axe.min.js"
FITS = """() => {
    const table = document.querySelector('[data-testid=game-hearts]');
    return [table.scrollWidth, table.clientWidth, Math.round(table.getBoundingClientRect().right),
            document.documentElement.clientWidth];
}"""


def finished(seat: Seat) -> bool:
    return seat.page.locator(tid("match-page")).get_attribute("data-status") == "finished"


def axe_violations(seat: Seat) -> list[str]:
    """What axe-core finds wrong with the Hearts table, empty if nothing."""
    assert AXE.is_file(), f"{AXE} is missing: run npm ci in games-ui"
    if not seat.page.evaluate("typeof window.axe !== 'undefined'"):
        seat.page.add_script_tag(path=str(AXE))
    found: list[str] = seat.page.evaluate(
        """async () => {
            const result = await window.axe.run(document.querySelector('[data-testid=game-hearts]'));
            const where = (v) => v.nodes.map((n) => n.target.join(' ')).join(', ');
            return result.violations.map((v) => `${v.id}: ${where(v)}`);
        }"""
    )
    return found


def assert_fits(seat: Seat) -> None:
    scroll, client, right, screen = seat.page.evaluate(FITS)
    assert scroll <= client and right <= screen, (
        f"the table is {scroll} px wide in {client}, ends at {right} of {screen}"
    )


def truth(server: Server, match_id: str) -> dict[str, object]:
    """The match's full state, straight from the database."""
    import json

    with sqlite3.connect(f"file:{server.database}?mode=ro", uri=True) as connection:
        (text,) = connection.execute("SELECT state FROM matches WHERE id = ?", (match_id,)).fetchone()
    state: dict[str, object] = json.loads(text)
    return state


def hand_of(state: dict[str, object], player_id: str) -> set[Card]:
    players = state["players"]
    assert isinstance(players, list)
    (player,) = [p for p in players if p["player_id"] == player_id]
    return {(card["rank"], card["suit"]) for card in player["hand"]}


def cards_in(value: object) -> Iterator[Card]:
    """Every card object (``{"rank", "suit"}``) anywhere in a JSON value."""
    if isinstance(value, dict):
        if isinstance(value.get("rank"), str) and isinstance(value.get("suit"), str):
            yield (value["rank"], value["suit"])
        for item in value.values():
            yield from cards_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from cards_in(item)


def press(seat: Seat, testid: str) -> None:
    """Focus a control and press Enter: the keyboard path."""
    seat.page.locator(tid(testid)).focus()
    seat.page.keyboard.press("Enter")


def wait_for_my_move(seat: Seat, timeout: float = 30.0) -> str | None:
    """'pass' or 'play' once the seat may act; None once the match is over."""
    deadline = time.monotonic() + timeout
    page = seat.page
    while time.monotonic() < deadline:
        if finished(seat):
            return None
        if page.locator(tid("pass-button")).count():
            return "pass"
        if page.locator(f"{tid('hand')} button:enabled").count():
            return "play"
        page.wait_for_timeout(50)  # polls the page until the deadline, not a fixed wait
    pytest.fail(f"{seat.name} could not act within {timeout} s")


def test_a_human_plays_a_whole_deal_by_keyboard_against_three_bots_on_a_narrow_screen(
    server: Server, open_narrow_seat: OpenSeat
) -> None:
    match_id = server.create_match("hearts", [{"name": "Ann"}, *BOTS], {"target_score": 1})
    ann = open_narrow_seat("ann")
    ann.join(f"#/match/{match_id}/join/p1")
    expect(ann.page.locator(tid("whoami"))).to_have_text("You play seat p1")
    ann.wait_live()
    ann.mark_no_reload()
    expect(ann.page.locator(f"{tid('hand')} button")).to_have_count(13)
    expect(ann.page.locator(tid("card-Q-spades"))).to_have_count(
        1 if ("Q", "spades") in hand_of(truth(server, match_id), "p1") else 0
    )
    moves = 0
    while (move := wait_for_my_move(ann)) is not None:
        moves += 1
        assert moves < 40, "the deal did not end"
        before = ann.index()
        if move == "pass":
            assert axe_violations(ann) == []
            assert_fits(ann)
            cards = ann.page.locator(f"{tid('hand')} button")
            names = [cards.nth(i).locator(".sr-only").inner_text() for i in range(3)]
            assert all(name and " of " in name for name in names)  # "queen of spades"
            for i in range(3):
                cards.nth(i).focus()
                ann.page.keyboard.press("Enter")
            expect(ann.page.locator(tid("pass-button"))).to_be_enabled()
            press(ann, "pass-button")
            expect(ann.page.locator(tid("passed"))).to_contain_text(str(names[0]))
        else:
            if moves == 2:
                assert axe_violations(ann) == []
                ann.screenshot("hearts-narrow")
            ann.page.locator(f"{tid('hand')} button:enabled").first.focus()
            ann.page.keyboard.press("Enter")
        ann.wait_index(before + 1, timeout=30_000)
    info = server.match(match_id)
    assert info["status"] == "finished"
    expect(ann.page.locator(tid("result"))).to_contain_text("Game over")
    expect(ann.page.locator(f"{tid('hand')} button")).to_have_count(0)
    totals = [int(ann.page.locator(tid(f"score-p{n}")).inner_text()) for n in (1, 2, 3, 4)]
    assert sum(totals) in {26, 78}  # one deal: 26 points, or the moon's 3 x 26
    assert axe_violations(ann) == []
    assert_fits(ann)
    assert not ann.reloaded()


def two_humans(server: Server, open_seat: OpenSeat) -> tuple[str, Seat, Seat]:
    """A one-deal match of Ann (p1), Bob (p2) and two random bots, both humans seated and live."""
    match_id = server.create_match(
        "hearts", [{"name": "Ann"}, {"name": "Bob"}, *BOTS[:2]], {"target_score": 1}
    )
    ann, bob = open_seat("ann"), open_seat("bob")
    for player_id, seat in (("p1", ann), ("p2", bob)):
        seat.join(f"#/match/{match_id}/join/{player_id}")
        expect(seat.page.locator(tid("whoami"))).to_have_text(f"You play seat {player_id}")
        seat.wait_live()
        expect(seat.page.locator(f"{tid('hand')} button")).to_have_count(13)
    return match_id, ann, bob


def test_a_second_human_never_sees_the_first_seats_hand(server: Server, open_seat: OpenSeat) -> None:
    match_id, ann, bob = two_humans(server, open_seat)
    state = truth(server, match_id)
    anns = hand_of(state, "p1")
    assert anns and not anns & hand_of(state, "p2")

    def bob_sees_none_of_anns() -> None:
        for rank, suit in anns:
            assert bob.page.locator(tid(f"card-{rank}-{suit}")).count() == 0
        shown = {card for value in walk_json(bob.received()) for card in cards_in(value)}
        assert not shown & anns, f"Bob's page received Ann's cards {sorted(shown & anns)}"

    bob_sees_none_of_anns()
    before = ann.index()
    for i in range(3):
        ann.page.locator(f"{tid('hand')} button").nth(i).click()
    ann.page.click(tid("pass-button"))
    ann.wait_index(before + 1)
    bob.wait_index(before + 1)
    bob_sees_none_of_anns()  # Ann's pass is sealed until it lands
    expect(bob.page.locator(tid("player-p1"))).to_contain_text("passed")


def can_act(seat: Seat) -> str | None:
    """'pass' or 'play' if the seat may act now, else None (it does not wait)."""
    if seat.page.locator(tid("pass-button")).count():
        return "pass"
    if seat.page.locator(f"{tid('hand')} button:enabled").count():
        return "play"
    return None


def test_two_human_seats_and_two_bots_play_a_whole_deal(server: Server, open_seat: OpenSeat) -> None:
    match_id, ann, bob = two_humans(server, open_seat)
    acted = {"ann": 0, "bob": 0}
    deadline = time.monotonic() + 120
    while not (finished(ann) and finished(bob)):
        assert time.monotonic() < deadline, f"the deal did not end: {acted}"
        for seat in (ann, bob):
            move = can_act(seat)
            if move is None:
                continue
            before = seat.index()
            if move == "pass":
                for i in range(3):
                    seat.page.locator(f"{tid('hand')} button").nth(i).click()
                seat.page.click(tid("pass-button"))
            else:
                seat.page.locator(f"{tid('hand')} button:enabled").first.click()
            seat.wait_index(before + 1, timeout=30_000)
            acted[seat.name] += 1
            state = truth(server, match_id)
            mine, theirs = ("p1", "p2") if seat is ann else ("p2", "p1")
            hidden = hand_of(state, theirs) - own_cards(state, mine) - played(state)
            shown = {card for value in walk_json(seat.received()) for card in cards_in(value)}
            assert not hidden & shown, (
                f"{seat.name}'s page received {sorted(hidden & shown)} of {theirs}'s hand"
            )
        ann.page.wait_for_timeout(50)  # polls both pages until the deadline, not a fixed wait
    assert acted["ann"] == acted["bob"] == 14, acted  # a pass and 13 cards each
    info = server.match(match_id)
    assert info["status"] == "finished"
    for seat in (ann, bob):
        expect(seat.page.locator(tid("result"))).to_contain_text("Game over")
        totals = [int(seat.page.locator(tid(f"score-p{n}")).inner_text()) for n in (1, 2, 3, 4)]
        assert sum(totals) in {26, 78}


def own_cards(state: dict[str, object], player_id: str) -> set[Card]:
    """The cards a seat has held this deal: its hand and what it passed away."""
    players = state["players"]
    assert isinstance(players, list)
    (player,) = [p for p in players if p["player_id"] == player_id]
    return hand_of(state, player_id) | set(cards_in(player.get("passed")))


def played(state: dict[str, object]) -> set[Card]:
    """Every card on the table or in the finished tricks (public once played)."""
    return {card for key in ("trick", "tricks") for card in cards_in(state.get(key))}
