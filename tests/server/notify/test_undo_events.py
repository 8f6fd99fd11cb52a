"""Notifications of history writes: an undo tells the seat it makes active; a fork tells nobody."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable

from tabletop_fixtures.live_server import Api
from tabletop_fixtures.receiver import Receiver, verify_signature

Json = dict[str, object]


def _seated(api: Api) -> tuple[str, dict[str, str]]:
    match = api.create("tic-tac-toe", 2, seed=3)
    return match["id"], {p: api.join(match["id"], p) for p in ("p1", "p2")}


def _register(api: Api, match_id: str, token: str, url: str) -> str:
    response = api.http.post(f"/api/matches/{match_id}/webhook", json={"url": url}, headers=api.auth(token))
    return str(api.ok(response, 201)["secret"])


def _place(api: Api, match_id: str, token: str, x: int, y: int) -> None:
    api.ok(api.post_action(match_id, token, {"type": "PlaceMark", "square": {"x": x, "y": y}}))


def _deliveries(api: Api, match_id: str, token: str) -> list[Json]:
    response = api.http.get(f"/api/matches/{match_id}/webhook/deliveries", headers=api.auth(token))
    return api.ok(response)["deliveries"]  # type: ignore[no-any-return]


def _until(check: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


def _revision(event_id: object) -> int:
    """The revision in an event id ``<match>.<revision>.<type>.<seat>``."""
    return int(str(event_id).split(".")[-3])


def test_an_undo_tells_the_seat_it_makes_active_once_and_the_other_seat_nothing(
    api: Api, hook: Receiver
) -> None:
    match_id, tokens = _seated(api)
    secret = {player: _register(api, match_id, tokens[player], hook.url) for player in ("p1", "p2")}
    _place(api, match_id, tokens["p1"], 0, 0)  # your-turn p2 at 1
    _place(api, match_id, tokens["p2"], 1, 1)  # your-turn p1 at 2
    _place(api, match_id, tokens["p1"], 2, 2)  # your-turn p2 at 3
    [first_turn] = [d for d in _deliveries(api, match_id, tokens["p1"]) if d["index"] == 2]
    p2_before = _deliveries(api, match_id, tokens["p2"])
    assert sorted(d["index"] for d in p2_before) == [1, 3]  # type: ignore[type-var]

    undo = {**api.auth(tokens["p1"]), "Idempotency-Key": secrets.token_hex(8)}
    assert api.ok(api.http.post(f"/api/matches/{match_id}/undo", headers=undo))["index"] == 2
    assert api.ok(api.http.post(f"/api/matches/{match_id}/undo", headers=undo))["index"] == 2  # a retry

    # Queued in the undo's own transaction: listed as soon as the undo answered.
    p1_rows = [d for d in _deliveries(api, match_id, tokens["p1"]) if d["index"] == 2]
    [again] = [d for d in p1_rows if d["event_id"] != first_turn["event_id"]]  # one, the retry added none
    assert again["type"] == "your-turn"
    assert _revision(again["event_id"]) > _revision(first_turn["event_id"])  # the undo's revision
    assert [d["event_id"] for d in _deliveries(api, match_id, tokens["p2"])] == [  # p2 got nothing new
        d["event_id"] for d in p2_before
    ]

    _until(
        lambda: all(
            row["status"] == "delivered"
            for p in ("p1", "p2")
            for row in _deliveries(api, match_id, tokens[p])
        )
    )
    hook.wait_for(4)
    assert {row["attempts"] for p in ("p1", "p2") for row in _deliveries(api, match_id, tokens[p])} == {1}
    [delivered] = [d for d in hook.got if d.event["id"] == again["event_id"]]  # once
    assert delivered.headers["Tabletop-Event-Id"] == again["event_id"]
    assert delivered.event == {
        "id": again["event_id"],
        "type": "your-turn",
        "created_at": delivered.event["created_at"],
        "match_id": match_id,
        "player_id": "p1",
        "index": 2,
    }
    assert verify_signature(secret["p1"], delivered.headers["Tabletop-Signature"], delivered.body)
    assert not verify_signature(secret["p2"], delivered.headers["Tabletop-Signature"], delivered.body)
    assert len(hook.got) == 4  # three actions' events and the undo's: nothing else, nothing twice
    assert sorted((d.event["player_id"], d.event["index"]) for d in hook.got) == [
        ("p1", 2),
        ("p1", 2),
        ("p2", 1),
        ("p2", 3),
    ]


def test_a_fork_tells_nobody_and_its_seats_are_told_from_their_own_webhooks(api: Api, hook: Receiver) -> None:
    match_id, tokens = _seated(api)
    for player in ("p1", "p2"):
        _register(api, match_id, tokens[player], hook.url)
    _place(api, match_id, tokens["p1"], 0, 0)  # your-turn p2 at 1
    fork = api.ok(api.http.post(f"/api/matches/{match_id}/fork", headers=api.auth(tokens["p1"])), 201)
    fork_id, fork_tokens = fork["match"]["id"], fork["tokens"]
    assert [d["index"] for d in _deliveries(api, match_id, tokens["p2"])] == [1]  # the parent: nothing new
    assert _deliveries(api, match_id, tokens["p1"]) == []
    fork_secret = {player: _register(api, fork_id, fork_tokens[player], hook.url) for player in ("p1", "p2")}
    assert _deliveries(api, fork_id, fork_tokens["p2"]) == []  # active in the fork, and not told

    _place(api, fork_id, fork_tokens["p2"], 1, 1)  # the fork's own write: your-turn p1 of the fork
    [told] = _deliveries(api, fork_id, fork_tokens["p1"])
    assert (told["type"], told["index"]) == ("your-turn", 2)
    _until(lambda: any(d.event["id"] == told["event_id"] for d in hook.got))
    [delivered] = [d for d in hook.got if d.event["match_id"] == fork_id]
    assert verify_signature(fork_secret["p1"], delivered.headers["Tabletop-Signature"], delivered.body)
    assert _deliveries(api, fork_id, fork_tokens["p2"]) == []
    assert [d["index"] for d in _deliveries(api, match_id, tokens["p2"])] == [1]
