"""``clock-low``: one signed event for the seat whose clock runs low in a turn, queued by the clock
keeper from the clock's due time (once across workers and restarts), none for a seat that moved in
time, none for the other seat."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from tabletop_fixtures.live_server import Api, LiveServer, live_server
from tabletop_fixtures.receiver import Delivered, Receiver, verify_signature

Json = Any

QUICK = {
    "webhook_poll_seconds": 0.05,
    "webhook_retry_seconds": 0.1,
    "webhook_timeout": 2.0,
    "clock_poll_seconds": 0.05,
}
"""Servers that look for due clocks and deliver webhooks promptly (the tests wait on conditions)."""


def _seated(api: Api, clock: Json) -> tuple[str, dict[str, str]]:
    body = {"game": "tic-tac-toe", "seats": [{"name": "One"}, {"name": "Two"}], "clock": clock}
    match = api.ok(api.http.post("/api/matches", json=body), 201)
    return match["id"], {p: api.join(match["id"], p) for p in ("p1", "p2")}


def _register(api: Api, match_id: str, token: str, url: str) -> str:
    response = api.http.post(f"/api/matches/{match_id}/webhook", json={"url": url}, headers=api.auth(token))
    return str(api.ok(response, 201)["secret"])


def _per_turn(seconds: float) -> Json:
    return {"control": {"type": "per-turn", "seconds": seconds}, "policy": {"on_timeout": "forfeit"}}


def _queued(api: Api, match_id: str, token: str, kind: str) -> list[Json]:
    """The seat's deliveries of this type as the server's outbox lists them."""
    response = api.http.get(f"/api/matches/{match_id}/webhook/deliveries", headers=api.auth(token))
    return [d for d in api.ok(response)["deliveries"] if d["type"] == kind]


def _of(hook: Receiver, kind: str) -> list[Delivered]:
    with hook.lock:
        return [d for d in hook.got if d.event["type"] == kind]


def _until(check: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.fixture(params=[1, 2], ids=["one-worker", "two-workers"])
def workers(request: pytest.FixtureRequest, migrated_url: str) -> Iterator[list[LiveServer]]:
    """One or two servers on the same database (a clock is low in the last quarter of a turn)."""
    with ExitStack() as stack:
        yield [
            stack.enter_context(live_server(migrated_url, clock_low_fraction=0.25, **QUICK))
            for _ in range(request.param)
        ]


def test_only_the_seat_that_runs_low_gets_one_signed_clock_low(
    workers: list[LiveServer], hook: Receiver
) -> None:
    apis = [Api(server.url) for server in workers]
    try:
        api = apis[0]
        match_id, tokens = _seated(api, _per_turn(8))  # low 6 s into a turn, out of time at 8 s
        secrets = {p: _register(api, match_id, tokens[p], hook.url) for p in ("p1", "p2")}
        view = apis[-1].view(match_id, tokens["p1"])
        apis[-1].ok(apis[-1].post_action(match_id, tokens["p1"], view["legal_actions"][0]))  # p1 in time
        _until(lambda: len(_of(hook, "match-finished")) == 2, "p2's forfeit on time")  # (after its low point)
        assert api.match(match_id)["winners"] == ["p1"]
        [low] = _of(hook, "clock-low")
        assert low.event["player_id"] == "p2"
        assert low.event["index"] == 1
        assert set(low.event) == {"id", "type", "created_at", "match_id", "player_id", "index"}
        assert verify_signature(secrets["p2"], low.headers["Tabletop-Signature"], low.body)
        assert not verify_signature(secrets["p1"], low.headers["Tabletop-Signature"], low.body)
        assert len(_queued(api, match_id, tokens["p2"], "clock-low")) == 1
        assert _queued(api, match_id, tokens["p1"], "clock-low") == []  # it moved before its low point
    finally:
        for client in apis:
            client.close()


def test_a_low_point_passed_while_the_server_was_down_is_announced_once(
    migrated_url: str, hook: Receiver
) -> None:
    once = {**QUICK, "clock_poll_seconds": 60.0, "clock_low_fraction": 0.7}  # look at start only
    with live_server(migrated_url, **once) as first:
        api = Api(first.url)
        match_id, tokens = _seated(api, _per_turn(10))  # low 3 s into p1's turn, out of time at 10 s
        _register(api, match_id, tokens["p1"], hook.url)
        due = api.ok(api.http.get(f"/api/matches/{match_id}/clock"))["clock"]["seats"][0]["due_at"]
        api.close()
    low_point = datetime.fromisoformat(due) - timedelta(seconds=7)
    _until(lambda: datetime.now(UTC) > low_point, "p1's low point, with no server running")
    with live_server(migrated_url, **once) as second:
        [low] = hook.wait_for(1)
        assert (low.event["type"], low.event["player_id"], low.event["index"]) == ("clock-low", "p1", 0)
        second.app.state.clocks.sweep()  # another look finds nothing more to announce
    with live_server(migrated_url, **once) as third:
        third.app.state.clocks.sweep()
        api = Api(third.url)
        assert len(_queued(api, match_id, tokens["p1"], "clock-low")) == 1
        assert api.match(match_id)["status"] == "in_progress"
        api.close()
    assert len(_of(hook, "clock-low")) == 1
