"""Snapshots: undo and fork of a long match start from the nearest stored state, and give what a
replay from the seed gives; the action log comes in pages."""

from __future__ import annotations

import random

import orjson
from tabletop_fixtures.live_server import Api, Json, LiveServer
from tabletop_server._history import fork, undo
from tabletop_server._play import submit
from tabletop_server._service import MatchService
from tabletop_server._snapshots import SNAPSHOT_EVERY, snapshot_due
from tabletop_server._submission import parse_body

from tests.server.api.replay import replayed_state


def _play(service: MatchService, match_id: str, player: str, body: Json, n: int) -> Json:
    """One action through the server's write path (the route's, without HTTP)."""
    raw = orjson.dumps({**body, "id": f"a{n}"})
    submission = parse_body(
        raw, action_type=str(body["type"]), match_id=match_id, player_id=player, if_match=None
    )
    answer, _ = submit(service, match_id, player, str(body["type"]), submission)
    return answer


def _comparable(state_json: str | bytes) -> Json:
    data: Json = orjson.loads(state_json)
    data.pop("game_id")
    prng = data.pop("prng")
    data["draws"] = prng["invocations"]  # a fork of a chance game has a fresh key: same draw count
    return data


def test_undo_and_fork_of_a_long_match_start_from_a_snapshot_and_match_a_replay(
    server: LiveServer, api: Api
) -> None:
    service: MatchService = server.app.state.service
    store = service.store
    match = api.create("pig", 2, seed=21, config={"target": 1000})
    match_id = match["id"]
    for seat in ("p1", "p2"):
        api.join(match_id, seat)
    rng = random.Random(21)
    undone = False
    for n in range(3 * SNAPSHOT_EVERY + 200):
        view = service.view(match_id, None)
        player = next(p for p in ("p1", "p2") if service.view(match_id, p)["legal_actions"])
        legal = service.view(match_id, player)["legal_actions"]
        assert isinstance(legal, list) and view["status"] == "in_progress"
        body = rng.choice(legal)
        assert isinstance(body, dict)
        answer = _play(service, match_id, player, body, n)
        head = answer["index"]
        assert isinstance(head, int)
        if head > 3 * SNAPSHOT_EVERY and answer["can_undo"]:  # a Hold: it drew nothing
            cut = undo(service, match_id, player)
            assert cut["index"] == head - 1
            undone = True
            break
    assert undone, "no undoable action after the third snapshot"
    row = store.get_match(match_id)
    snapshot = store.snapshot(match_id, row.head)
    assert snapshot is not None and 3 * SNAPSHOT_EVERY <= snapshot[0] <= row.head
    # a Roll's write records its RollDie too, so the first snapshot is at 100 or 101
    for index in (snapshot[0], SNAPSHOT_EVERY + 1):
        stored = store.snapshot(match_id, index)
        assert stored is not None
        replayed, _ = replayed_state(store, match_id, stop=stored[0])
        assert orjson.loads(stored[1]) == orjson.loads(replayed.model_dump_json())
    replayed, stored_now = replayed_state(store, match_id)
    assert orjson.loads(stored_now) == orjson.loads(replayed.model_dump_json())  # the undo's state

    at = 2 * SNAPSHOT_EVERY + 17
    forked: Json = fork(service, match_id, "p1", at)
    child = store.get_match(forked["match"]["id"])
    expected, _ = replayed_state(store, match_id, stop=at)
    assert _comparable(child.state_json) == _comparable(expected.model_dump_json())


def test_an_undo_past_a_snapshot_deletes_it(server: LiveServer, api: Api) -> None:
    service: MatchService = server.app.state.service
    store = service.store
    match = api.create("sample", 1, seed=3, config={"big_totals_allowed": True})
    match_id = match["id"]
    api.join(match_id, "p1")
    for n in range(2 * SNAPSHOT_EVERY):
        before = store.get_match(match_id).head
        answer = _play(service, match_id, "p1", {"type": "Pass"}, n)
        if snapshot_due(before, int(answer["index"])):
            break
    crossed = store.snapshot(match_id, 10**6)
    assert crossed is not None and crossed[0] == answer["index"] >= SNAPSHOT_EVERY
    assert answer["can_undo"] is True
    cut = undo(service, match_id, "p1")
    assert cut["index"] == before
    assert store.snapshot(match_id, 10**6) is None
    replayed, stored_now = replayed_state(store, match_id)
    assert orjson.loads(stored_now) == orjson.loads(replayed.model_dump_json())


def test_the_action_log_comes_in_pages(api: Api) -> None:
    match = api.create("tic-tac-toe", 2, seed=4)
    match_id = match["id"]
    p1, p2 = api.join(match_id, "p1"), api.join(match_id, "p2")
    for token, (x, y) in [(p1, (0, 0)), (p2, (1, 1)), (p1, (2, 2)), (p2, (0, 2)), (p1, (2, 0))]:
        api.ok(api.post_action(match_id, token, {"type": "PlaceMark", "square": {"x": x, "y": y}}))
    whole = api.actions(match_id)
    assert whole["next_after"] is None and len(whole["actions"]) == whole["index"] == 5
    pages: list[Json] = []
    after: Json = -1
    while after is not None:
        page = api.ok(api.http.get(f"/api/matches/{match_id}/actions", params={"after": after, "limit": 2}))
        assert len(page["actions"]) <= 2
        pages += page["actions"]
        after = page["next_after"]
    assert pages == whole["actions"]
    for limit in (0, 1001):
        refused = api.http.get(f"/api/matches/{match_id}/actions", params={"limit": limit})
        assert refused.status_code in (400, 422) and refused.json()["path"] == "limit"
