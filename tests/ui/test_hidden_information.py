"""Hidden information in the browser: over a whole Go Fish match played by clicking, no page (its
DOM text, and every fetch response and server-sent event it received) ever holds another seat's
cards or the PRNG key. The truth is read from the server's database after every move."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect
from tabletop_fixtures.browser import Seat, Server, tid, walk_json

pytestmark = pytest.mark.browser

OpenSeat = Callable[[str], Seat]
Card = tuple[str, str]
SUITS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}


def read_truth(
    database: Path, match_id: str
) -> tuple[dict[str, object], str | None, list[dict[str, object]]]:
    """The match's full state, its PRNG key and its recorded actions, straight from the database."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        state_text, key = connection.execute(
            "SELECT state, prng_key FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        rows = connection.execute(
            'SELECT action FROM actions WHERE match_id = ? ORDER BY "index"', (match_id,)
        ).fetchall()
    state: dict[str, object] = json.loads(state_text)
    return state, key, [json.loads(row[0]) for row in rows]


def hands(state: dict[str, object]) -> dict[str, set[Card]]:
    """Each player's hand in a Go Fish state."""
    players = state["players"]
    assert isinstance(players, list)
    return {p["player_id"]: {(c["rank"], c["suit"]) for c in p["hand"]} for p in players}


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


def keys_in(value: object) -> Iterator[str]:
    """Every object key anywhere in a JSON value, but inside a match's ``fairness`` (its key is
    null until the match is over and revealed then on purpose: tests/server/hosting/test_fairness.py)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            if key != "fairness":
                yield from keys_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys_in(item)


def other_hands_shown(value: object, seat: str | None) -> Iterator[object]:
    """Hands of players other than ``seat`` that a JSON value shows (they must all be null)."""
    if isinstance(value, dict):
        if "player_id" in value and value.get("player_id") != seat and value.get("hand") is not None:
            yield value
        for item in value.values():
            yield from other_hands_shown(item, seat)
    elif isinstance(value, list):
        for item in value:
            yield from other_hands_shown(item, seat)


def test_go_fish_pages_never_hold_another_seats_cards_or_the_prng_key(
    server: Server, open_seat: OpenSeat
) -> None:
    match_id = server.create_match("go-fish", [{"name": "Ann"}, {"name": "Bob"}])
    ann, bob, watcher = open_seat("ann"), open_seat("bob"), open_seat("watcher")
    seats = {"p1": ann, "p2": bob}
    for player_id, seat in seats.items():
        seat.join(f"#/match/{match_id}/join/{player_id}")
        expect(seat.page.locator(tid("whoami"))).to_have_text(f"You play seat {player_id}")
        seat.wait_live()
    watcher.goto(f"#/match/{match_id}/watch")
    watcher.wait_live()
    pages = (ann, bob, watcher)
    for page in pages:
        page.mark_no_reload()

    held: dict[str, set[Card]] = {"p1": set(), "p2": set()}
    keys: set[str] = set()
    moves = 0
    while True:
        state, key, _ = read_truth(server.database, match_id)
        if key:
            keys.add(key)
        for player_id, hand in hands(state).items():
            held[player_id] |= hand
        for page in pages:
            page.wait_index(int(str(state["action_count"])))
            page.snapshot_dom()
        # every seat's hand on its page is exactly its true hand
        for player_id, seat in seats.items():
            shown = seat.page.locator(f'{tid("hand")} [data-testid^="card-"]').evaluate_all(
                "(cards) => cards.map((card) => card.dataset.testid)"
            )
            assert sorted(shown) == sorted(f"card-{rank}-{suit}" for rank, suit in hands(state)[player_id])
        if state["result"] is not None:
            break
        active = state["active_player_ids"]
        assert isinstance(active, list) and len(active) == 1
        mover = seats[active[0]]
        asks = mover.page.locator('[data-testid^="ask-"]:enabled')
        expect(asks.first).to_be_visible()
        other = bob if mover is ann else ann
        assert (
            other.page.locator('[data-testid^="ask-"]').count() == 0
        )  # only the seat on turn is offered asks
        before = mover.index()
        asks.nth(moves % asks.count()).click()
        mover.wait_index(before + 1)
        moves += 1
        if moves == 8:
            ann.screenshot("go-fish")
            watcher.screenshot("go-fish-spectator")
        assert moves < 400, "the match did not end"

    state, key, actions = read_truth(server.database, match_id)
    if key:
        keys.add(key)
    revealed = {
        card for action in actions if action["type"] == "Ask" for card in cards_in(action["metadata"])
    }
    secret = {seat: held[seat] - revealed for seat in held}
    # the test can fail: each seat held cards the other never saw handed over
    assert secret["p1"] - held["p2"] and secret["p2"] - held["p1"]
    assert keys, "the server stores a PRNG key for a hidden-information match"
    for page, me in ((ann, "p1"), (bob, "p2"), (watcher, None)):
        forbidden = set().union(
            *(secret[other] - held.get(me or "", set()) for other in secret if other != me)
        )
        received = page.received()
        assert received, "the recorder saw the page's traffic"
        for value in walk_json(received):
            assert forbidden.isdisjoint(cards_in(value)), f"{page.name} received another seat's card"
            assert list(other_hands_shown(value, me)) == [], f"{page.name} received another seat's hand"
            assert {"prng", "key", "deck"}.isdisjoint(keys_in(value)), f"{page.name} received hidden state"
        texts = [*received, *page.dom_texts, page.page.content()]
        for text in texts:
            # Once the match is over its key is revealed on purpose (provably fair chance).
            over = '"status":"finished"' in text or "Game over" in text
            for secret_key in keys:
                assert over or secret_key not in text, f"{page.name} holds the PRNG key"
            for rank, suit in forbidden:
                assert f"{rank}{SUITS[suit]}" not in text and f"{rank}\n{SUITS[suit]}" not in text, (
                    f"{page.name} shows another seat's {rank} of {suit}"
                )
        assert not page.reloaded()
    for page in pages:
        expect(page.page.locator(tid("result"))).to_contain_text("Game over")
