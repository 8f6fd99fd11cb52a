"""Who may take a seat and end a match: creator tokens, invites, public and private matches.

Each test works on matches of its own on one server per module and database (SQLite and
PostgreSQL).
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from tabletop._cli import main
from tabletop_fixtures.live_server import Api, LiveServer, live_server


@pytest.fixture
def api(shared_api: Api) -> Api:
    """One server per module and database: every test here works on a match of its own."""
    return shared_api


def _create(api: Api, visibility: str, seats: list[dict[str, object]] | None = None) -> dict[str, object]:
    body = {"game": "tic-tac-toe", "seats": seats or [{}, {}], "seed": 3, "visibility": visibility}
    created: dict[str, object] = api.ok(api.http.post("/api/matches", json=body), 201)
    return created


def _claim(api: Api, match_id: str, player_id: str, invite: str | None = None) -> tuple[int, dict[str, str]]:
    body = None if invite is None else {"invite": invite}
    response = api.http.post(f"/api/matches/{match_id}/seats/{player_id}", json=body)
    return response.status_code, response.json()


def _invites(created: dict[str, object]) -> dict[str, str]:
    invites = created["invites"]
    assert isinstance(invites, list)
    return {invite["player_id"]: invite["invite"] for invite in invites}


def _listed(api: Api) -> set[str]:
    return {match["id"] for match in api.ok(api.http.get("/api/matches", params={"limit": 500}))["matches"]}


def test_a_private_match_seat_is_claimed_only_with_its_invite_or_the_creator_token(api: Api) -> None:
    created = _create(api, "private")
    match_id = str(created["id"])
    invites = _invites(created)
    assert created["visibility"] == "private" and set(invites) == {"p1", "p2"}
    links = {invite["player_id"]: invite["link"] for invite in created["invites"]}  # type: ignore[attr-defined]
    assert links["p1"] == f"#/match/{match_id}/join/p1/{invites['p1']}"
    assert match_id not in _listed(api)  # strangers do not find it
    assert _claim(api, match_id, "p1")[1]["code"] == "invite-required"
    assert _claim(api, match_id, "p1", invites["p2"])[1]["code"] == "invalid-invite"  # another seat's
    assert _claim(api, match_id, "p1", "x" * 43)[0] == 403
    assert [seat["occupied"] for seat in api.match(match_id)["seats"]] == [False, False]  # unchanged
    status, joined = _claim(api, match_id, "p1", invites["p1"])
    assert status == 201 and joined["player_id"] == "p1"
    assert _claim(api, match_id, "p1", invites["p1"])[1]["code"] == "seat-taken"  # used once
    status, _ = _claim(api, match_id, "p2", str(created["creator_token"]))  # the creator takes any seat
    assert status == 201
    assert api.view(match_id, joined["token"])["player_id"] == "p1"
    fork = api.ok(api.http.post(f"/api/matches/{match_id}/fork", headers=api.auth(joined["token"])), 201)
    assert fork["match"]["visibility"] == "private" and fork["match"]["id"] not in _listed(api)


def test_a_public_match_is_listed_and_its_free_seats_are_open(api: Api) -> None:
    created = _create(api, "public", [{}, {"bot": {"kind": "random"}}])
    match_id = str(created["id"])
    assert match_id in _listed(api)
    assert set(_invites(created)) == {"p1"}  # a bot seat has no invite
    assert _claim(api, match_id, "p1")[0] == 201
    secrets_seen = str(api.match(match_id)) + str(api.ok(api.http.get("/api/matches")))
    assert str(created["creator_token"]) not in secrets_seen and _invites(created)["p1"] not in secrets_seen


def test_the_creator_ends_a_match_and_it_refuses_every_write(api: Api) -> None:
    created = _create(api, "private")
    match_id, creator = str(created["id"]), str(created["creator_token"])
    token = _claim(api, match_id, "p1", _invites(created)["p1"])[1]["token"]
    api.ok(api.post_action(match_id, token, {"type": "PlaceMark", "square": {"x": 0, "y": 0}}))
    end = f"/api/matches/{match_id}/end"
    assert api.http.post(end).json()["code"] == "missing-token"
    refused = api.http.post(end, headers=api.auth(token))  # a seat token is not the creator's
    assert (refused.status_code, refused.json()["code"]) == (403, "not-creator")
    assert api.match(match_id)["status"] == "in_progress"
    ended = api.ok(api.http.post(end, headers=api.auth(creator)))
    assert (ended["status"], ended["index"]) == ("ended", 1)
    assert api.ok(api.http.post(end, headers=api.auth(creator))) == api.match(match_id)  # idempotent
    view = api.view(match_id, token)
    assert (view["status"], view["legal_actions"], view["valid_action_types"]) == ("ended", [], [])
    writes = [
        api.post_action(match_id, token, {"type": "PlaceMark", "square": {"x": 1, "y": 1}}),
        api.http.post(f"/api/matches/{match_id}/undo", headers=api.auth(token)),
        api.http.post(f"/api/matches/{match_id}/seats/p2", json={"invite": _invites(created)["p2"]}),
    ]
    assert [(w.status_code, w.json()["code"]) for w in writes] == [(409, "match-ended")] * 3
    assert api.match(match_id)["index"] == 1
    listed = api.ok(api.http.get("/api/matches", params={"status": "ended"}))["matches"]
    assert all(match["status"] == "ended" for match in listed)


def test_a_finished_match_cannot_be_ended(api: Api) -> None:
    created = _create(api, "public")
    match_id = str(created["id"])
    tokens = {p: _claim(api, match_id, p)[1]["token"] for p in ("p1", "p2")}
    for player, x in [("p1", 0), ("p2", 0), ("p1", 1), ("p2", 1), ("p1", 2)]:
        y = 0 if player == "p1" else 1
        api.ok(api.post_action(match_id, tokens[player], {"type": "PlaceMark", "square": {"x": x, "y": y}}))
    response = api.http.post(f"/api/matches/{match_id}/end", headers=api.auth(str(created["creator_token"])))
    assert (response.status_code, response.json()["code"]) == (409, "game-over")
    assert api.match(match_id)["status"] == "finished"


@pytest.fixture
def slow_bots(migrated_url: str) -> Iterator[tuple[LiveServer, Api, str]]:
    """A server whose bots wait 0.2 s before each move (so a match of bots can be ended midway)."""
    with live_server(migrated_url, bot_delay=0.2) as running:
        client = Api(running.url)
        try:
            yield running, client, migrated_url
        finally:
            client.close()


def _wait(condition: object, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.05)


@pytest.mark.parametrize("how", ["creator", "operator"])
def test_ending_a_match_stops_its_bots(slow_bots: tuple[LiveServer, Api, str], how: str) -> None:
    server, api, url = slow_bots
    bots: list[dict[str, object]] = [{"bot": {"kind": "random"}}, {"bot": {"kind": "random"}}]
    created = _create(api, "public", bots)
    match_id = str(created["id"])
    _wait(lambda: api.match(match_id)["index"] >= 1)
    if how == "creator":
        headers = api.auth(str(created["creator_token"]))
        ended = api.ok(api.http.post(f"/api/matches/{match_id}/end", headers=headers))["index"]
    else:
        assert main(["db", "matches", "end", match_id, "--db", url]) == 0
        ended = api.match(match_id)["index"]
    assert ended < 9
    runner = server.app.state.bots
    _wait(runner.idle)
    _wait(lambda: runner.idle() and api.match(match_id)["status"] == "ended")
    assert api.match(match_id)["index"] == ended == len(api.actions(match_id)["actions"])


def test_the_operator_command_refuses_an_unknown_match(
    migrated_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "matches", "end", "m_nope", "--db", migrated_url]) == 1
    assert "no match 'm_nope'" in capsys.readouterr().err


def test_a_human_cannot_block_a_bot_by_sending_its_next_action_id(api: Api) -> None:
    created = _create(api, "public", [{}, {"bot": {"kind": "random"}}])
    match_id = str(created["id"])
    token = _claim(api, match_id, "p1")[1]["token"]
    # The bots' ids were `bot-<revision>-<head>-<seat>`: the bot's next move would have been this.
    first = {"type": "PlaceMark", "square": {"x": 1, "y": 1}, "id": "bot-1-1-p2"}
    api.ok(api.post_action(match_id, token, first))
    _wait(lambda: api.match(match_id)["index"] >= 2)
    log = api.actions(match_id)["actions"]
    assert [a["player_id"] for a in log] == ["p1", "p2"]
    bot_id = log[1]["id"]
    assert bot_id.startswith("bot-") and len(bot_id) >= 24 and bot_id != "bot-1-1-p2"
