"""The history viewer's API: every past index, for every perspective, as the replay projects it."""

from __future__ import annotations

from typing import Any

from tabletop import GameAction
from tabletop.views import SPECTATOR, project, project_action
from tabletop_fixtures.live_server import Api, LiveServer

from tests.server.api.replay import replayed_state


def _history(api: Api, match_id: str, index: int, token: str | None) -> Any:
    response = api.http.get(f"/api/matches/{match_id}/history/{index}", headers=api.auth(token))
    return api.ok(response)


def test_every_index_equals_the_replayed_projection_and_hides_the_other_hand(
    api: Api, server: LiveServer
) -> None:
    match = api.create("go-fish", 2, seed=9)
    match_id = match["id"]
    tokens = {p: api.join(match_id, p) for p in ("p1", "p2")}
    for _ in range(12):  # a dozen moves in: hands changed, cards were drawn and passed
        if api.match(match_id)["status"] != "in_progress":
            break
        for token in tokens.values():
            legal = api.view(match_id, token)["legal_actions"]
            if legal:
                api.ok(api.post_action(match_id, token, legal[-1]))
                break
    head = int(api.match(match_id)["index"])
    assert head >= 6
    store = server.app.state.service.store
    stored = store.actions(match_id)
    for index in range(head + 1):
        state, _ = replayed_state(store, match_id, stop=index)
        for player, perspective in (("p1", "p1"), ("p2", "p2"), (None, SPECTATOR)):
            got = _history(api, match_id, index, None if player is None else tokens[player])
            assert got["index"] == index and got["head"] == head
            assert got["view"] == project(state, perspective).model_dump(mode="json")
            expected = [
                project_action(a, perspective).model_dump(mode="json")
                for a in (_loaded(server, row.json) for row in stored if row.index < index)
            ]
            assert got["actions"] == expected
            hands = {p["player_id"]: p.get("hand") for p in got["view"]["players"]}
            for seat, hand in hands.items():
                assert (hand is not None) == (seat == player), (index, player, seat)
    now = api.view(match_id, tokens["p1"])
    assert _history(api, match_id, head, tokens["p1"])["view"] == now["view"]


def _loaded(server: LiveServer, text: str) -> GameAction:
    from tabletop_server._runtime import load_action

    entry = server.app.state.service.registry.get("go-fish")
    return load_action(entry, text)


def test_an_index_outside_the_log_is_refused(api: Api) -> None:
    match = api.create("tic-tac-toe", 2)
    response = api.http.get(f"/api/matches/{match['id']}/history/5")
    assert (response.status_code, response.json()["code"], response.json()["path"]) == (
        400,
        "invalid-index",
        "index",
    )
    token = "not-a-seat-token"
    response = api.http.get(f"/api/matches/{match['id']}/history/0", headers=api.auth(token))
    assert (response.status_code, response.json()["code"]) == (401, "invalid-token")
    assert _history(api, match["id"], 0, None)["actions"] == []
