"""Lost answers: a POST retried with its idempotency key gets the original result, once.

A retry is what a client sends when the answer to a committed request was lost (the connection
dropped): the same request again, with the same ``Idempotency-Key`` header (or action id).
"""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from tabletop_fixtures.live_server import Api


@pytest.fixture
def api(shared_api: Api) -> Api:
    """One server per module and database: every test here works on matches of its own."""
    return shared_api


def _key() -> dict[str, str]:
    return {"Idempotency-Key": str(uuid.uuid4())}


def _body(seed: int = 5, visibility: str = "private") -> dict[str, object]:
    return {"game": "tic-tac-toe", "seats": [{}, {}], "seed": seed, "visibility": visibility}


def _count(api: Api, match_ids: set[str]) -> int:
    listed = api.ok(api.http.get("/api/matches", params={"limit": 500}))["matches"]
    return sum(1 for match in listed if match["id"] in match_ids)


def test_a_retried_creation_makes_one_match_with_fresh_secrets(api: Api) -> None:
    key = _key()
    body = _body(visibility="public")
    first = api.ok(api.http.post("/api/matches", json=body, headers=key), 201)
    again = api.ok(api.http.post("/api/matches", json=body, headers=key), 201)
    assert again["id"] == first["id"] and _count(api, {first["id"]}) == 1
    assert again["creator_token"] != first["creator_token"]
    old, new = first["invites"][0]["invite"], again["invites"][0]["invite"]
    assert old != new
    match_id = first["id"]
    stale = api.http.post(f"/api/matches/{match_id}/end", headers=api.auth(first["creator_token"]))
    assert stale.json()["code"] == "not-creator"  # the lost answer's secrets stop working
    assert api.http.post(f"/api/matches/{match_id}/seats/p1", json={"invite": old}).status_code == 403
    assert api.http.post(f"/api/matches/{match_id}/seats/p1", json={"invite": new}).status_code == 201
    other = api.ok(api.http.post("/api/matches", json=body, headers=_key()), 201)  # another key
    assert other["id"] != match_id


def test_concurrent_retries_of_a_creation_make_one_match(api: Api) -> None:
    key, body = _key(), _body(seed=6)
    with ThreadPoolExecutor(max_workers=6) as pool:
        answers = list(pool.map(lambda _: api.http.post("/api/matches", json=body, headers=key), range(6)))
    assert {a.status_code for a in answers} == {201}
    assert len({a.json()["id"] for a in answers}) == 1


@pytest.mark.parametrize(
    ("headers", "body", "status", "code"),
    [
        ({"Idempotency-Key": "short"}, _body(), 400, "invalid-header"),
        ({"Idempotency-Key": "k" * 65}, _body(), 400, "invalid-value"),
        ({"Idempotency-Key": "bad key with spaces!"}, _body(), 400, "invalid-header"),
    ],
)
def test_a_bad_idempotency_key_is_refused(
    api: Api, headers: dict[str, str], body: dict[str, object], status: int, code: str
) -> None:
    response = api.http.post("/api/matches", json=body, headers=headers)
    assert (response.status_code, response.json()["code"]) == (status, code)


def test_a_key_reused_for_another_creation_is_a_typed_conflict(api: Api) -> None:
    key = _key()
    first = api.ok(api.http.post("/api/matches", json=_body(seed=1), headers=key), 201)
    response = api.http.post("/api/matches", json=_body(seed=2), headers=key)
    assert (response.status_code, response.json()["code"]) == (409, "idempotency-key-reused")
    assert api.match(first["id"])["index"] == first["index"]


def test_a_retried_claim_gets_a_fresh_token_for_the_same_seat(api: Api) -> None:
    created = api.ok(api.http.post("/api/matches", json=_body(visibility="public")), 201)
    match_id, key = created["id"], _key()
    seat = f"/api/matches/{match_id}/seats/p1"
    first = api.ok(api.http.post(seat, headers=key), 201)
    again = api.ok(api.http.post(seat, headers=key), 201)
    assert first["player_id"] == again["player_id"] == "p1" and first["token"] != again["token"]
    lost = api.http.get(f"/api/matches/{match_id}/view", headers=api.auth(first["token"]))
    assert (lost.status_code, lost.json()["code"]) == (401, "invalid-token")  # the lost token is revoked
    assert api.view(match_id, again["token"])["player_id"] == "p1"
    stranger = api.http.post(seat, headers=_key())
    assert (stranger.status_code, stranger.json()["code"]) == (409, "seat-taken")
    renamed = api.http.post(seat, json={"name": "Someone else"}, headers=key)
    assert (renamed.status_code, renamed.json()["code"]) == (409, "idempotency-key-reused")
    api.ok(api.post_action(match_id, again["token"], {"type": "PlaceMark", "square": {"x": 0, "y": 0}}))


def test_a_retried_claim_after_leaving_does_not_take_the_seat_back(api: Api) -> None:
    created = api.ok(api.http.post("/api/matches", json=_body(visibility="public")), 201)
    match_id, key = created["id"], _key()
    seat = f"/api/matches/{match_id}/seats/p1"
    token = api.ok(api.http.post(seat, headers=key), 201)["token"]
    assert api.http.delete(seat, headers=api.auth(token)).status_code == 204
    newcomer = api.ok(api.http.post(seat), 201)["token"]
    response = api.http.post(seat, headers=key)
    assert (response.status_code, response.json()["code"]) == (409, "seat-taken")
    assert api.view(match_id, newcomer)["player_id"] == "p1"


def test_an_action_without_an_id_retried_with_its_key_is_applied_once(api: Api) -> None:
    created = api.ok(api.http.post("/api/matches", json=_body(visibility="public")), 201)
    match_id = created["id"]
    token = api.ok(api.http.post(f"/api/matches/{match_id}/seats/p1"), 201)["token"]
    key = _key()
    move = {"type": "PlaceMark", "square": {"x": 1, "y": 1}}
    first = api.ok(api.post_action(match_id, token, move, headers=key))
    again = api.ok(api.post_action(match_id, token, move, headers=key))
    assert first["actions"] == again["actions"] and first["actions"][0]["id"] == key["Idempotency-Key"]
    assert api.match(match_id)["index"] == 1
    other = api.post_action(match_id, token, {**move, "id": "another-id"}, headers=key)
    assert (other.status_code, other.json()["code"], other.json()["path"]) == (400, "invalid-value", "id")
    changed = api.post_action(match_id, token, {**move, "square": {"x": 2, "y": 2}}, headers=key)
    assert (changed.status_code, changed.json()["code"]) == (409, "idempotency-key-reused")
    assert api.match(match_id)["index"] == 1


def test_a_retried_undo_undoes_once(api: Api) -> None:
    created = api.ok(api.http.post("/api/matches", json=_body(visibility="public")), 201)
    match_id = created["id"]
    token = api.ok(api.http.post(f"/api/matches/{match_id}/seats/p1"), 201)["token"]
    api.ok(api.http.post(f"/api/matches/{match_id}/seats/p2"), 201)
    api.ok(api.post_action(match_id, token, {"type": "PlaceMark", "square": {"x": 0, "y": 0}}))
    key = _key()
    undo = f"/api/matches/{match_id}/undo"
    first = api.ok(api.http.post(undo, headers={**api.auth(token), **key}))
    again = api.ok(api.http.post(undo, headers={**api.auth(token), **key}))
    assert first["index"] == again["index"] == 0 and api.match(match_id)["index"] == 0
    api.ok(api.post_action(match_id, token, {"type": "PlaceMark", "square": {"x": 1, "y": 1}}))
    retried_late = api.ok(api.http.post(undo, headers={**api.auth(token), **key}))  # the key is spent
    assert retried_late["index"] == 1 and api.match(match_id)["index"] == 1


def test_a_retried_fork_makes_one_fork_with_fresh_tokens(api: Api) -> None:
    created = api.ok(api.http.post("/api/matches", json=_body(visibility="public")), 201)
    match_id = created["id"]
    token = api.ok(api.http.post(f"/api/matches/{match_id}/seats/p1"), 201)["token"]
    api.ok(api.post_action(match_id, token, {"type": "PlaceMark", "square": {"x": 0, "y": 0}}))
    key, fork = _key(), f"/api/matches/{match_id}/fork"
    first = api.ok(api.http.post(fork, json={"index": 1}, headers=key), 201)
    again = api.ok(api.http.post(fork, json={"index": 1}, headers=key), 201)
    assert first["match"]["id"] == again["match"]["id"]
    assert set(first["tokens"]) == set(again["tokens"]) == {"p1", "p2"}
    stale = api.http.get(f"/api/matches/{first['match']['id']}/view", headers=api.auth(first["tokens"]["p1"]))
    assert stale.json()["code"] == "invalid-token"
    assert api.view(first["match"]["id"], again["tokens"]["p1"])["index"] == 1
    other = api.http.post(fork, json={"index": 0}, headers=key)
    assert (other.status_code, other.json()["code"]) == (409, "idempotency-key-reused")


def test_concurrent_retries_of_a_claim_take_the_seat_once(api: Api) -> None:
    created = api.ok(api.http.post("/api/matches", json=_body(seed=8, visibility="public")), 201)
    match_id, key = created["id"], _key()
    seat = f"/api/matches/{match_id}/seats/p1"
    with ThreadPoolExecutor(max_workers=4) as pool:
        answers = list(pool.map(lambda _: api.http.post(seat, headers=key), range(4)))
    assert [a.status_code for a in answers] == [201] * 4, [a.text for a in answers]
    assert {a.json()["player_id"] for a in answers} == {"p1"}
    view = f"/api/matches/{match_id}/view"
    tokens = [a.json()["token"] for a in answers]
    working = [token for token in tokens if api.http.get(view, headers=api.auth(token)).status_code == 200]
    assert len(working) == 1  # each retry revoked the token before it
    assert [s["occupied"] for s in api.match(match_id)["seats"]] == [True, False]
