"""Concurrent submissions through HTTP: nothing lost, nothing applied twice."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import orjson
from tabletop_fixtures.live_server import Api, LiveServer
from tabletop_server.storage import Store

from tests.server.api.replay import replayed_state

THREADS = 8
PER_THREAD = 25


def test_eight_threads_of_twenty_five_submissions_lose_and_duplicate_nothing(
    server: LiveServer, api: Api
) -> None:
    match = api.create("sample", 1, seed=2)  # one seat: Pass is always legal and never ends the game
    match_id = match["id"]
    token = api.join(match_id, "p1")

    def submit(thread: int) -> list[str]:
        client = Api(server.url)
        accepted = []
        try:
            for n in range(PER_THREAD):
                action_id = f"t{thread}-{n}"
                body = {"type": "Pass", "id": action_id}
                first = client.ok(client.post_action(match_id, token, body))
                again = client.ok(client.post_action(match_id, token, body))  # a client's retry
                assert again["actions"] == first["actions"]
                accepted.append(action_id)
        finally:
            client.close()
        return accepted

    with ThreadPoolExecutor(THREADS) as pool:
        accepted = [action_id for ids in pool.map(submit, range(THREADS)) for action_id in ids]
    log = api.actions(match_id)["actions"]
    user_ids = [action["id"] for action in log if action["source"] == "user"]
    assert sorted(user_ids) == sorted(accepted) and len(set(user_ids)) == THREADS * PER_THREAD
    assert [action["index"] for action in log] == list(range(api.match(match_id)["index"]))
    store: Store = server.app.state.service.store
    replayed, stored = replayed_state(store, match_id)
    assert orjson.loads(replayed.model_dump_json()) == orjson.loads(stored)
