"""Undo follows the seed's rules (by replay, under the head guard); a fork never shows hidden truth."""

from __future__ import annotations

import orjson
from tabletop_fixtures.live_server import Api, LiveServer, open_stream
from tabletop_server.storage import Store

from tests.server.api.replay import replayed_state


def _mark(x: int, y: int) -> dict[str, object]:
    return {"type": "PlaceMark", "square": {"x": x, "y": y}}


def _undo(api: Api, match_id: str, token: str) -> tuple[int, dict[str, object]]:
    response = api.http.post(f"/api/matches/{match_id}/undo", headers=api.auth(token))
    return response.status_code, response.json()


def _store(server: LiveServer) -> Store:
    store: Store = server.app.state.service.store
    return store


def test_a_player_undoes_their_own_last_action_until_another_player_acts(
    server: LiveServer, api: Api
) -> None:
    match = api.create("tic-tac-toe", 2, seed=1)
    match_id = match["id"]
    p1, p2 = api.join(match_id, "p1"), api.join(match_id, "p2")
    start = api.view(match_id, p1)
    watcher = open_stream(api, match_id, p2)
    assert watcher.next().event == "snapshot"

    played = api.ok(api.post_action(match_id, p1, _mark(1, 1)))
    assert played["can_undo"] is True and api.view(match_id, p2)["can_undo"] is False
    assert watcher.next().event == "update"
    status, undone = _undo(api, match_id, p1)
    assert status == 200 and undone["index"] == 0 and undone["view"] == start["view"]
    assert api.actions(match_id)["actions"] == []
    reset = watcher.next()
    assert (reset.event, reset.data["index"], reset.data["view"]) == (
        "reset",
        0,
        api.view(match_id, p2)["view"],
    )

    api.ok(api.post_action(match_id, p1, _mark(0, 0)))
    api.ok(api.post_action(match_id, p2, _mark(2, 2)))
    status, refused = _undo(api, match_id, p1)
    assert (status, refused["code"]) == (409, "undo-not-allowed")
    status, undone = _undo(api, match_id, p2)
    assert status == 200 and undone["index"] == 1
    replayed, stored = replayed_state(_store(server), match_id)
    assert orjson.loads(replayed.model_dump_json()) == orjson.loads(stored)
    watcher.close()


def test_undo_is_refused_once_a_later_action_revealed_information(api: Api) -> None:
    match = api.create("goofspiel", 2, seed=2, config={"cards": 3})
    match_id = match["id"]
    p1, p2 = api.join(match_id, "p1"), api.join(match_id, "p2")
    bid_1 = api.view(match_id, p1)["legal_actions"][0]
    api.ok(api.post_action(match_id, p1, bid_1))
    status, undone = _undo(api, match_id, p1)  # a sealed bid, nothing revealed yet
    assert status == 200 and undone["index"] == match["index"]
    api.ok(api.post_action(match_id, p1, bid_1))
    result = api.ok(api.post_action(match_id, p2, api.view(match_id, p2)["legal_actions"][0]))
    # the second bid closes the round: Reveal shows both bids, then the next prize comes up
    assert [action["type"] for action in result["actions"]] == ["Bid", "Reveal", "RevealPrize"]
    for token in (p1, p2):
        status, refused = _undo(api, match_id, token)
        assert (status, refused["code"]) == (409, "undo-not-allowed")


def test_a_fork_replays_the_parent_up_to_its_index(server: LiveServer, api: Api) -> None:
    match = api.create("tic-tac-toe", 2, seed=4)
    match_id = match["id"]
    p1, p2 = api.join(match_id, "p1"), api.join(match_id, "p2")
    for token, (x, y) in [(p1, (0, 0)), (p2, (1, 1)), (p1, (2, 2))]:
        api.ok(api.post_action(match_id, token, _mark(x, y)))
    response = api.http.post(f"/api/matches/{match_id}/fork", json={"index": 2}, headers=api.auth(p2))
    fork = api.ok(response, 201)
    fork_id = fork["match"]["id"]
    assert fork["match"]["parent"] == {"match_id": match_id, "index": 2} and fork["match"]["index"] == 2
    assert [a["square"] for a in api.actions(fork_id)["actions"]] == [{"x": 0, "y": 0}, {"x": 1, "y": 1}]
    assert set(fork["tokens"]) == {"p1", "p2"}
    api.ok(api.post_action(fork_id, fork["tokens"]["p1"], _mark(0, 2)))  # the fork plays on by itself
    assert api.match(match_id)["index"] == 3
    replayed, stored = replayed_state(_store(server), fork_id)
    assert orjson.loads(replayed.model_dump_json()) == orjson.loads(stored)
    bad = api.http.post(f"/api/matches/{match_id}/fork", json={"index": 9})
    assert (bad.status_code, bad.json()["code"]) == (400, "invalid-index")


def test_a_hidden_information_fork_resamples_what_the_forker_cannot_see(server: LiveServer, api: Api) -> None:
    match = api.create("go-fish", 2, seed=6)
    match_id = match["id"]
    p1 = api.join(match_id, "p1")
    api.join(match_id, "p2")
    store = _store(server)
    parent = store.get_match(match_id)
    truth = orjson.loads(parent.state_json)
    forks = [
        api.ok(api.http.post(f"/api/matches/{match_id}/fork", headers=api.auth(p1)), 201) for _ in range(3)
    ]
    for fork in forks:
        row = store.get_match(fork["match"]["id"])
        world = orjson.loads(row.state_json)
        assert row.base_state_json is not None and row.prng_key not in (None, parent.prng_key)
        assert world["players"][0]["hand"] == truth["players"][0]["hand"]  # what p1 sees is kept
        assert world["players"][1]["hand"] != truth["players"][1]["hand"]  # p2's hand is re-sampled
        assert len(world["players"][1]["hand"]) == len(truth["players"][1]["hand"])
        assert world["deck"] != truth["deck"]
        mine = api.view(fork["match"]["id"], fork["tokens"]["p1"])["view"]
        theirs = api.view(match_id, p1)["view"]
        assert {**mine, "game_id": None} == {**theirs, "game_id": None}
    spectator = api.ok(api.http.post(f"/api/matches/{match_id}/fork"), 201)  # no token: a spectator
    world = orjson.loads(store.get_match(spectator["match"]["id"]).state_json)
    hands = [player["hand"] for player in world["players"]]
    assert hands != [player["hand"] for player in truth["players"]]  # every hand is re-sampled
    assert [len(hand) for hand in hands] == [len(player["hand"]) for player in truth["players"]]
    watched = api.view(spectator["match"]["id"], None)["view"]
    assert {**watched, "game_id": None} == {**api.view(match_id, None)["view"], "game_id": None}


def test_a_chance_game_forks_with_a_fresh_key_so_the_next_rolls_stay_unknown(
    server: LiveServer, api: Api
) -> None:
    match = api.create("pig", 2, seed=12)
    match_id = match["id"]
    p1 = api.join(match_id, "p1")
    api.join(match_id, "p2")
    api.ok(api.post_action(match_id, p1, {"type": "Roll"}))
    store = _store(server)
    fork = api.ok(api.http.post(f"/api/matches/{match_id}/fork", headers=api.auth(p1)), 201)
    parent, child = store.get_match(match_id), store.get_match(fork["match"]["id"])
    assert child.prng_key not in (None, parent.prng_key) and child.base_state_json is not None
    theirs, mine = orjson.loads(parent.state_json), orjson.loads(child.state_json)
    assert theirs.pop("prng")["invocations"] == mine.pop("prng")["invocations"]
    assert {**theirs, "game_id": None} == {**mine, "game_id": None}


def test_an_action_that_drew_a_chance_outcome_cannot_be_undone(api: Api) -> None:
    match = api.create("pig", 2, seed=12)
    match_id = match["id"]
    p1 = api.join(match_id, "p1")
    before = api.match(match_id)
    rolled = api.ok(api.post_action(match_id, p1, {"type": "Roll"}))
    assert rolled["can_undo"] is False  # the response already says so
    status, refused = _undo(api, match_id, p1)  # undoing would let p1 roll again knowing the die
    assert (status, refused["code"]) == (409, "undo-not-allowed")
    assert api.match(match_id)["index"] > before["index"]
