"""axe-core on every page of the app: the lobby, the join page, and a match page of every game at
its start, in its middle and at its end (the human seat's moves are sent through the API here; the
browser plays them by touch and keyboard in test_play_every_game.py). Every page has one h1.

A violation inside a game's own table (``games-ui/<game>-ui``) is that game UI's to fix: such a
game's case is marked ``xfail(strict=True)`` naming the rule and the element, and the app shell
around it is checked on its own (it must have none).
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import expect
from tabletop.games import load
from tabletop_fixtures.axe import axe_violations
from tabletop_fixtures.browser import DEVICES, Seat, Server, tid
from tabletop_fixtures.game_uis import UI_GAMES

pytestmark = pytest.mark.browser

GAME_TABLE_VIOLATIONS: dict[str, str] = {}
"""Violations axe finds inside a game's own table (its UI project fixes them): game → rule, element."""


def one_h1(seat: Seat) -> None:
    expect(seat.page.locator("h1")).to_have_count(1)


@pytest.mark.parametrize("device", DEVICES)
def test_the_lobby_and_the_join_page_have_no_violations(
    device: str, server: Server, open_device: Callable[[str, str], Seat]
) -> None:
    match_id = server.create_match("pig", [{"name": "Ann"}, {"name": "Bob"}])
    ann = open_device("ann", device)
    ann.goto("/")
    expect(ann.page.locator(tid("game-pig"))).to_be_visible()
    ann.page.click(tid("game-pig"))
    expect(ann.page.locator(tid("create-form"))).to_be_visible()
    one_h1(ann)
    assert axe_violations(ann.page) == []

    ann.goto(f"#/match/{match_id}/join/p1")
    expect(ann.page.locator(tid("join-submit"))).to_be_enabled()
    one_h1(ann)
    assert axe_violations(ann.page) == []
    ann.page.click(tid("join-submit"))
    ann.wait_live()

    ann.goto(f"#/match/{match_id}/join/p1")  # a seat this browser holds: straight back to the match
    ann.wait_live()
    ann.goto(f"#/match/{match_id}/join/p2")  # another seat: this browser keeps its own
    expect(ann.page.locator(tid("already-seated"))).to_be_visible()
    one_h1(ann)
    assert axe_violations(ann.page) == []

    bob = open_device("bob", device)
    bob.goto(f"#/match/{match_id}/join/p9")  # an error page: no such seat
    expect(bob.page.locator(tid("error"))).to_have_attribute("data-code", "unknown-seat")
    one_h1(bob)
    assert axe_violations(bob.page) == []

    ann.goto("/")
    expect(ann.page.locator(tid(f"your-match-{match_id}"))).to_be_visible()
    assert axe_violations(ann.page) == []


def play_through_the_api(server: Server, match_id: str, token: str, rng: random.Random, moves: int) -> None:
    """Up to ``moves`` random legal moves of seat p1 (waiting for the bots between them)."""
    headers = {"Authorization": f"Bearer {token}"}
    played = 0
    deadline = 0
    while played < moves:
        view = server.api.get(f"/api/matches/{match_id}/view", headers=headers).json()
        if view["status"] != "in_progress":
            return
        legal = view["legal_actions"] or []
        if not legal:
            deadline += 1
            assert deadline < 3000, "the bots did not move within 5 minutes"
            time.sleep(0.1)
            continue
        choice = dict(rng.choice(legal))
        body = choice | {"id": str(uuid.uuid4()), "game_id": match_id, "player_id": "p1"}
        route = f"/api/matches/{match_id}/actions/{choice['type']}"
        response = server.api.post(route, json=body, headers=headers)
        assert response.status_code in (200, 201, 409), response.text
        played += 1


def mark_known(game: str) -> object:
    if game in GAME_TABLE_VIOLATIONS:
        return pytest.param(game, marks=pytest.mark.xfail(strict=True, reason=GAME_TABLE_VIOLATIONS[game]))
    return game


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("game", [mark_known(game) for game in UI_GAMES])
def test_every_games_match_page_has_no_violations_at_start_middle_and_end(
    game: str, device: str, server: Server, open_device: Callable[[str, str], Seat]
) -> None:
    definition = load(game)
    seats: list[dict[str, object]] = [{"name": "Ann"}]
    bots = range(2, max(2, definition.min_players) + 1)
    seats += [{"name": f"Bot {n}", "bot": {"kind": "random"}} for n in bots]
    match_id = server.create_match(game, seats)
    joined = server.api.post(f"/api/matches/{match_id}/seats/p1", json={})
    assert joined.status_code == 201, joined.text
    token = joined.json()["token"]
    ann = open_device("ann", device)
    seat = json.dumps({"playerId": "p1", "token": token})
    ann.context.add_init_script(f"localStorage.setItem('tabletop.seat.{match_id}', {json.dumps(seat)})")
    ann.goto(f"#/match/{match_id}")
    ann.wait_live()
    expect(ann.page.locator(tid(f"game-{game}"))).to_be_visible()
    rng = random.Random(game)
    shell: list[str] = []
    table: list[str] = []
    for moment, moves in (("start", 0), ("middle", 3), ("end", 10_000)):
        play_through_the_api(server, match_id, token, rng, moves)
        if moment == "end":
            ann.page.wait_for_function(
                "() => document.querySelector('[data-testid=match-page]')?.dataset.status === 'finished'",
                timeout=60_000,
            )
            expect(ann.page.locator(tid("match-result"))).to_contain_text("Game over")
        else:
            ann.wait_index(server.match(match_id)["index"])  # type: ignore[arg-type]
        one_h1(ann)
        shell += [f"{moment}: {v}" for v in axe_violations(ann.page, exclude=tid("board"))]
        table += [f"{moment}: {v}" for v in axe_violations(ann.page, selector=tid("board"))]
    assert shell == [], f"the app shell around {game}'s table:\n" + "\n".join(shell)
    assert table == [], f"{game}'s own table:\n" + "\n".join(table)
