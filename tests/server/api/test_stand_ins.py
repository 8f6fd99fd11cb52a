"""Absent players: a bot plays for a seat (handed over by the seat, the creator, or after N
timeouts) from the seat's view, and the seat's holder takes it back."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from tabletop_fixtures.live_server import Api, LiveServer, live_server

Json = Any


def wait_for(condition: Callable[[], object], what: str, timeout: float = 30) -> None:
    """Poll ``condition`` until true, within a generous bound."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def stand_in(api: Api, match_id: str, player_id: str, token: str | None, body: Json = None) -> Any:
    return api.http.post(
        f"/api/matches/{match_id}/seats/{player_id}/stand-in", json=body, headers=api.auth(token)
    )


def take_back(api: Api, match_id: str, player_id: str, token: str | None) -> Any:
    return api.http.delete(f"/api/matches/{match_id}/seats/{player_id}/stand-in", headers=api.auth(token))


def stand_ins(api: Api, match_id: str) -> list[Json]:
    return list(api.ok(api.http.get(f"/api/matches/{match_id}/clock"))["stand_ins"])


def test_a_seat_lets_a_bot_play_for_it_and_takes_the_seat_back(api: Api) -> None:
    match = api.create("tic-tac-toe", 2)
    match_id = match["id"]
    p1, p2 = api.join(match_id, "p1"), api.join(match_id, "p2")
    handed = api.ok(stand_in(api, match_id, "p1", p1))
    assert handed == {"player_id": "p1", "bot": {"kind": "random", "iterations": 200}, "reason": "seat"}
    wait_for(lambda: api.match(match_id)["index"] >= 1, "the bot's move for p1")
    assert api.actions(match_id)["actions"][0]["player_id"] == "p1"
    assert api.actions(match_id)["actions"][0]["id"].startswith("bot-")
    wait_for(lambda: api.match(match_id)["index"] >= 1, "the move")
    back = take_back(api, match_id, "p1", p1)
    assert back.status_code == 204, back.text
    assert stand_ins(api, match_id) == []
    # p2 moves; p1 is to act again and nobody plays for it any more
    view = api.view(match_id, p2)
    body = {**view["legal_actions"][0], "index": view["index"]}
    assert api.post_action(match_id, p2, body).status_code == 200
    time.sleep(0.5)
    view = api.view(match_id, p1)
    assert view["index"] == 2 and view["valid_action_types"] == ["PlaceMark"]
    assert api.post_action(match_id, p1, {**view["legal_actions"][0], "index": 2}).status_code == 200


def test_the_creator_hands_an_absent_seat_to_a_bot(api: Api) -> None:
    created = api.ok(api.http.post("/api/matches", json={"game": "tic-tac-toe", "seats": [{}, {}]}), 201)
    match_id, creator = created["id"], created["creator_token"]
    p1 = api.join(match_id, "p1")
    assert api.post_action(match_id, p1, {"type": "PlaceMark", "square": {"x": 0, "y": 0}}).status_code == 200
    # p2 never came: the creator's token hands its (free) seat to a bot
    assert api.ok(stand_in(api, match_id, "p2", creator))["reason"] == "creator"
    wait_for(lambda: api.match(match_id)["index"] >= 2, "the bot's move for p2")
    assert api.actions(match_id)["actions"][1]["player_id"] == "p2"


@pytest.mark.parametrize(
    ("who", "status", "code"),
    [("other-seat", 403, "not-creator"), ("nobody", 401, "missing-token"), ("stranger", 403, "not-creator")],
)
def test_only_the_seat_or_the_creator_hands_a_seat_over(api: Api, who: str, status: int, code: str) -> None:
    match_id = api.create("tic-tac-toe", 2)["id"]
    api.join(match_id, "p1")
    p2 = api.join(match_id, "p2")
    token = {"other-seat": p2, "nobody": None, "stranger": "not-a-token"}[who]
    response = stand_in(api, match_id, "p1", token)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert stand_ins(api, match_id) == []


def test_taking_back_needs_the_seats_own_token_and_a_bot_in_it(api: Api) -> None:
    created = api.ok(api.http.post("/api/matches", json={"game": "tic-tac-toe", "seats": [{}, {}]}), 201)
    match_id, creator = created["id"], created["creator_token"]
    p1, p2 = api.join(match_id, "p1"), api.join(match_id, "p2")
    response = take_back(api, match_id, "p1", p1)
    assert (response.status_code, response.json()["code"]) == (409, "seat-not-away")
    assert stand_in(api, match_id, "p2", creator).status_code == 200
    again = stand_in(api, match_id, "p2", p2)
    assert (again.status_code, again.json()["code"]) == (409, "seat-away")
    for token, status, code in [
        (creator, 403, "wrong-seat"),
        (p1, 403, "wrong-seat"),
        (None, 401, "missing-token"),
    ]:
        refused = take_back(api, match_id, "p2", token)
        assert (refused.status_code, refused.json()["code"]) == (status, code)
    assert take_back(api, match_id, "p2", p2).status_code == 204
    unknown = stand_in(api, match_id, "p9", creator)
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown-seat")


def test_a_bot_seat_cannot_get_a_stand_in(api: Api) -> None:
    body = {"game": "tic-tac-toe", "seats": [{}, {"bot": {"kind": "random"}}]}
    created = api.ok(api.http.post("/api/matches", json=body), 201)
    response = stand_in(api, created["id"], "p2", created["creator_token"])
    assert (response.status_code, response.json()["code"]) == (409, "seat-is-bot")


def test_after_n_timeouts_a_bot_takes_the_seat_until_its_holder_returns(migrated_url: str) -> None:
    with live_server(migrated_url, clock_poll_seconds=0.05) as server:
        api = Api(server.url)
        try:
            _away_after(api, server)
        finally:
            api.close()


def _away_after(api: Api, server: LiveServer) -> None:
    clock = {
        "control": {"type": "per-turn", "seconds": 0.3},
        "policy": {"on_timeout": "bot", "away_after": 1},
    }
    body = {"game": "pig", "seats": [{}, {}], "clock": clock}
    match_id = api.ok(api.http.post("/api/matches", json=body), 201)["id"]
    p1, p2 = api.join(match_id, "p1"), api.join(match_id, "p2")
    wait_for(lambda: any(s["player_id"] == "p1" for s in stand_ins(api, match_id)), "p1 to be away")
    assert [s["reason"] for s in stand_ins(api, match_id) if s["player_id"] == "p1"] == ["timeouts"]
    clock_view = api.view(match_id, p1)["clock"]
    assert {seat["player_id"]: seat["away"] for seat in clock_view["seats"]}["p1"] is True
    assert take_back(api, match_id, "p1", p1).status_code == 204
    assert all(s["player_id"] != "p1" for s in stand_ins(api, match_id))
    assert p2
