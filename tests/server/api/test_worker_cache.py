"""Workers keep a cache of hydrated matches, but the database decides: two servers on one
database, each serving requests of the same match, never answer from a stale copy."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
import pytest
from tabletop_fixtures.live_server import Api, LiveServer, live_server
from tabletop_server.storage import Store

from tests.server.api.replay import replayed_state


@pytest.fixture
def second(migrated_url: str) -> Iterator[Api]:
    """A client of a second server (worker) on the same database as ``server``."""
    with live_server(migrated_url) as running:
        client = Api(running.url)
        try:
            yield client
        finally:
            client.close()


def _square(api: Api, match_id: str, token: str) -> dict[str, object]:
    legal = api.view(match_id, token)["legal_actions"]
    assert isinstance(legal, list) and legal
    first = legal[0]
    assert isinstance(first, dict)
    return first


def test_moves_through_alternating_workers_play_on_the_stored_match(
    server: LiveServer, api: Api, second: Api
) -> None:
    match_id = api.create("tic-tac-toe", 2, seed=3)["id"]
    tokens = {player: api.join(match_id, player) for player in ("p1", "p2")}
    workers = [second, api]
    played = 0
    while api.match(match_id)["status"] == "in_progress":
        player = ("p1", "p2")[played % 2]
        body = _square(api, match_id, tokens[player])  # read through the first worker
        worker = workers[played % 2]  # each worker's cached copy is one move behind
        answer = worker.ok(worker.post_action(match_id, tokens[player], body))
        played += 1
        assert answer["index"] == played
    log = api.actions(match_id)["actions"]
    assert [action["index"] for action in log] == list(range(played))
    assert [action["player_id"] for action in log] == [("p1", "p2")[n % 2] for n in range(played)]
    store: Store = server.app.state.service.store
    replayed, stored = replayed_state(store, match_id)
    assert orjson.loads(replayed.model_dump_json()) == orjson.loads(stored)


def test_a_worker_that_cached_a_seat_refuses_its_token_once_released_elsewhere(api: Api, second: Api) -> None:
    match_id = api.create("tic-tac-toe", 2, seed=4)["id"]
    tokens = {player: api.join(match_id, player) for player in ("p1", "p2")}
    api.ok(api.post_action(match_id, tokens["p1"], _square(api, match_id, tokens["p1"])))
    body = _square(api, match_id, tokens["p2"])
    second.ok(second.post_action(match_id, tokens["p2"], body))  # caches both seats' tokens
    body = _square(api, match_id, tokens["p1"])  # p1's turn, in the cache and in the database
    released = api.http.delete(f"/api/matches/{match_id}/seats/p1", headers=api.auth(tokens["p1"]))
    assert released.status_code == 204  # a seat change does not move the match's revision
    refused = second.post_action(match_id, tokens["p1"], body)
    assert refused.status_code == 401 and refused.json()["code"] == "invalid-token"
    assert api.match(match_id)["index"] == 2  # nothing recorded
    view = second.http.get(f"/api/matches/{match_id}/view", headers=second.auth(tokens["p1"]))
    assert view.status_code == 401


def test_an_action_id_replayed_through_another_worker_returns_the_first_answer(api: Api, second: Api) -> None:
    match_id = api.create("tic-tac-toe", 2, seed=5)["id"]
    token = api.join(match_id, "p1")
    body = {**_square(api, match_id, token), "id": "retry-1"}
    first = api.ok(api.post_action(match_id, token, body))
    again = second.ok(second.post_action(match_id, token, body))
    assert again["actions"] == first["actions"] and again["index"] == first["index"] == 1
    assert len(api.actions(match_id)["actions"]) == 1
