"""Turn notifications: signed webhook events from the outbox, retried, and their failures visible."""

from __future__ import annotations

import time

from tabletop_fixtures.live_server import Api
from tabletop_fixtures.receiver import Receiver, verify_signature


def _seated(api: Api, game: str = "tic-tac-toe") -> tuple[str, dict[str, str]]:
    match = api.create(game, 2, seed=3)
    return match["id"], {p: api.join(match["id"], p) for p in ("p1", "p2")}


def _register(api: Api, match_id: str, token: str, url: str) -> dict[str, object]:
    response = api.http.post(f"/api/matches/{match_id}/webhook", json={"url": url}, headers=api.auth(token))
    return api.ok(response, 201)  # type: ignore[no-any-return]


def _play_one(api: Api, match_id: str, token: str) -> None:
    view = api.view(match_id, token)
    api.ok(api.post_action(match_id, token, view["legal_actions"][0]))


def _deliveries(api: Api, match_id: str, token: str) -> list[dict[str, object]]:
    response = api.http.get(f"/api/matches/{match_id}/webhook/deliveries", headers=api.auth(token))
    return api.ok(response)["deliveries"]  # type: ignore[no-any-return]


def _until(check: object, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)


def test_your_turn_is_delivered_signed_with_the_registration_secret(api: Api, hook: Receiver) -> None:
    match_id, tokens = _seated(api)
    created = _register(api, match_id, tokens["p2"], hook.url)
    secret = str(created["secret"])
    assert created["player_id"] == "p2"
    assert "secret" not in api.ok(
        api.http.get(f"/api/matches/{match_id}/webhook", headers=api.auth(tokens["p2"]))
    )
    _play_one(api, match_id, tokens["p1"])  # now it is p2's turn
    [delivered] = hook.wait_for(1)
    event = delivered.event
    assert event["type"] == "your-turn"
    assert event["player_id"] == "p2"
    assert event["match_id"] == match_id
    assert event["index"] == api.match(match_id)["index"]
    assert delivered.headers["Tabletop-Event-Id"] == event["id"]
    assert verify_signature(secret, delivered.headers["Tabletop-Signature"], delivered.body)
    assert not verify_signature("whsec_wrong", delivered.headers["Tabletop-Signature"], delivered.body)
    assert not verify_signature(secret, delivered.headers["Tabletop-Signature"], delivered.body + b" ")
    _until(lambda: _deliveries(api, match_id, tokens["p2"])[0]["status"] == "delivered")
    assert _deliveries(api, match_id, tokens["p1"]) == []  # p1 registered nothing


def test_a_failing_receiver_gets_the_same_event_again_until_it_answers(api: Api, hook: Receiver) -> None:
    match_id, tokens = _seated(api)
    _register(api, match_id, tokens["p2"], hook.url)
    hook.fail_next = 2
    _play_one(api, match_id, tokens["p1"])
    [ok] = hook.wait_for(1)
    attempts = [d for d in hook.got if d.event["id"] == ok.event["id"]]
    assert [d.answered for d in attempts] == [500, 500, 204]
    assert len({d.body for d in attempts}) == 1  # the same event, byte for byte
    _until(lambda: _deliveries(api, match_id, tokens["p2"])[0]["status"] == "delivered")
    assert _deliveries(api, match_id, tokens["p2"])[0]["attempts"] == 3


def test_after_the_last_attempt_a_delivery_is_failed_and_visible(api: Api, hook: Receiver) -> None:
    match_id, tokens = _seated(api)
    _register(api, match_id, tokens["p2"], hook.url)
    hook.fail_next = 100
    _play_one(api, match_id, tokens["p1"])
    _until(lambda: _deliveries(api, match_id, tokens["p2"])[0]["status"] == "failed")
    [failed] = _deliveries(api, match_id, tokens["p2"])
    assert failed["attempts"] == 3
    assert failed["last_error"] == "HTTP 500"
    assert len(hook.got) == 3


def test_a_dead_receiver_does_not_slow_the_action_path_or_other_seats(api: Api, hook: Receiver) -> None:
    match_id, tokens = _seated(api)
    _register(api, match_id, tokens["p2"], "http://127.0.0.1:9/unreachable")
    other_id, others = _seated(api)
    _register(api, other_id, others["p2"], hook.url)
    _play_one(api, match_id, tokens["p1"])
    _play_one(api, other_id, others["p1"])
    [delivered] = hook.wait_for(1)
    assert delivered.event["match_id"] == other_id
    _until(lambda: _deliveries(api, match_id, tokens["p2"])[0]["status"] == "failed")
    assert "Error" in str(_deliveries(api, match_id, tokens["p2"])[0]["last_error"])


def test_match_finished_reaches_every_registered_seat_and_carries_no_state(api: Api, hook: Receiver) -> None:
    match_id, tokens = _seated(api)
    for player in ("p1", "p2"):
        _register(api, match_id, tokens[player], hook.url)
    while api.match(match_id)["status"] == "in_progress":
        view = api.view(match_id, tokens["p1"])
        player = "p1" if view["legal_actions"] else "p2"
        _play_one(api, match_id, tokens[player])
    head = api.match(match_id)["index"]
    finished = [d for d in hook.wait_for(2 + 1) if d.event["type"] == "match-finished"]
    _until(lambda: len([d for d in hook.got if d.event["type"] == "match-finished"]) == 2)
    finished = [d for d in hook.got if d.event["type"] == "match-finished"]
    assert sorted(d.event["player_id"] for d in finished) == ["p1", "p2"]  # type: ignore[type-var]
    for delivered in finished:
        assert set(delivered.event) == {"id", "type", "created_at", "match_id", "player_id", "index"}
        assert delivered.event["index"] == head


def test_webhooks_need_a_seat_token_and_an_http_url(api: Api, hook: Receiver) -> None:
    match_id, tokens = _seated(api)
    spectator = api.http.post(f"/api/matches/{match_id}/webhook", json={"url": hook.url})
    assert (spectator.status_code, spectator.json()["code"]) == (401, "missing-token")
    bad = api.http.post(
        f"/api/matches/{match_id}/webhook", json={"url": "file:///etc/passwd"}, headers=api.auth(tokens["p1"])
    )
    assert bad.status_code == 400
    none = api.http.get(f"/api/matches/{match_id}/webhook", headers=api.auth(tokens["p1"]))
    assert (none.status_code, none.json()["code"]) == (404, "no-webhook")
    _register(api, match_id, tokens["p1"], hook.url)
    gone = api.http.delete(f"/api/matches/{match_id}/webhook", headers=api.auth(tokens["p1"]))
    assert gone.status_code == 204
