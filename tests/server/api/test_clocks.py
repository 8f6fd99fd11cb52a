"""Clocks: time controls chosen at creation, deadlines enforced by exactly one worker (also after a
restart), and every timeout policy, on a real server over SQLite and PostgreSQL."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from tabletop_fixtures.live_server import Api, LiveServer, live_server

Json = Any

FAST = {"clock_poll_seconds": 0.05}
"""Servers that look for due clocks often (the deadlines themselves are real, and short)."""


def wait_for(condition: Callable[[], object], what: str, timeout: float = 30) -> None:
    """Poll ``condition`` until true, within a generous bound."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def clocked(migrated_url: str) -> Iterator[LiveServer]:
    """A server that looks for due clocks every 50 ms."""
    with live_server(migrated_url, **FAST) as running:
        yield running


@pytest.fixture
def capi(clocked: LiveServer) -> Iterator[Api]:
    """A client of ``clocked``."""
    client = Api(clocked.url)
    try:
        yield client
    finally:
        client.close()


def create(api: Api, game: str, clock: Json, seats: int = 2) -> tuple[str, list[str]]:
    """A match with ``clock`` and every seat claimed: its id and the seat tokens."""
    body = {"game": game, "seats": [{"name": f"Seat {n}"} for n in range(seats)], "clock": clock}
    match = api.ok(api.http.post("/api/matches", json=body), 201)
    tokens = [api.join(match["id"], f"p{n}") for n in range(1, seats + 1)]
    return match["id"], tokens


def ended(api: Api, match_id: str) -> bool:
    return bool(api.match(match_id)["status"] == "finished")


def report(api: Api, match_id: str) -> Json:
    return api.ok(api.http.get(f"/api/matches/{match_id}/clock"))


def per_turn(seconds: float, on_timeout: str = "forfeit", **policy: object) -> Json:
    return {
        "control": {"type": "per-turn", "seconds": seconds},
        "policy": {"on_timeout": on_timeout, **policy},
    }


def test_games_list_the_clocks_they_allow(capi: Api) -> None:
    games = {game["name"]: game for game in capi.ok(capi.http.get("/api/games"))["games"]}
    assert games["tic-tac-toe"]["clocks"] == {
        "time_controls": ["none", "per-turn", "chess", "correspondence"],
        "timeout_policies": ["forfeit", "bot"],
    }
    assert games["pig"]["clocks"]["timeout_policies"] == ["forfeit", "bot", "pass"]  # pig declares Hold


@pytest.mark.parametrize(
    ("clock", "code", "path"),
    [
        (per_turn(5, "pass"), "timeout-policy-unsupported", "clock.policy.on_timeout"),
        ({"control": {"type": "per-turn", "seconds": 0}}, "invalid-value", None),
        ({"control": {"type": "sundial"}}, None, None),
        ({"control": {"type": "chess", "main_seconds": 60, "increment": 2}}, None, None),
        (per_turn(5, "forfeit", away_after=0), "invalid-value", None),
    ],
)
def test_a_clock_the_game_refuses_is_a_typed_error_and_creates_nothing(
    capi: Api, clock: Json, code: str | None, path: str | None
) -> None:
    body = {"game": "tic-tac-toe", "seats": [{}, {}], "clock": clock}
    response = capi.http.post("/api/matches", json=body)
    assert response.status_code == 400, response.text
    error = response.json()
    assert set(error) == {"code", "message", "path"}
    if code is not None:
        assert error["code"] == code
    if path is not None:
        assert error["path"] == path
    assert capi.ok(capi.http.get("/api/matches"))["matches"] == []


def test_without_a_clock_views_carry_none_and_nothing_expires(capi: Api) -> None:
    match = capi.create("tic-tac-toe", 2)
    assert capi.match(match["id"])["clock"] is None
    assert capi.view(match["id"])["clock"] is None
    assert report(capi, match["id"]) == {"clock": None, "timeouts": [], "stand_ins": []}


def test_forfeit_on_time_ends_the_match_for_the_other_seat_once(capi: Api) -> None:
    match_id, _ = create(capi, "tic-tac-toe", per_turn(0.4))
    wait_for(lambda: capi.match(match_id)["status"] == "finished", "the forfeit")
    info = capi.match(match_id)
    assert (info["result"], info["winners"], info["index"]) == ("win", ["p2"], 1)
    timeouts = report(capi, match_id)["timeouts"]
    assert [(t["index"], t["player_id"], t["policy"], t["outcome"]) for t in timeouts] == [
        (0, "p1", "forfeit", "forfeit")
    ]
    assert datetime.fromisoformat(timeouts[0]["observed_at"]) >= datetime.fromisoformat(timeouts[0]["due_at"])
    # The loss is an action in the log, carrying what the server observed.
    (lost,) = capi.actions(match_id)["actions"]
    assert (lost["type"], lost["source"], lost["player_id"], lost["index"]) == (
        "TimeExpired",
        "system",
        "p1",
        0,
    )
    assert lost["id"] == timeouts[0]["action_id"] and lost["id"].startswith("timeout-")
    assert [datetime.fromisoformat(lost[key]) for key in ("due_at", "observed_at")] == [
        datetime.fromisoformat(timeouts[0][key]) for key in ("due_at", "observed_at")
    ]
    assert lost["metadata"] == {"result": "win", "winning_player_ids": ["p2"]}
    view = capi.view(match_id)
    assert (view["view"]["result"], view["view"]["winning_player_ids"]) == ("win", ["p2"])
    assert not any(seat["running"] for seat in view["clock"]["seats"])
    # Replaying the log reproduces the ending: the history after it, and the verification.
    after = capi.ok(capi.http.get(f"/api/matches/{match_id}/history/1"))
    assert after["view"]["result"] == "win" and after["actions"][-1]["type"] == "TimeExpired"
    before = capi.ok(capi.http.get(f"/api/matches/{match_id}/history/0"))
    assert before["view"]["result"] is None
    checked = capi.ok(capi.http.get(f"/api/matches/{match_id}/verification"))
    assert (checked["verified"], checked["problems"], checked["actions"]) == (True, [], 1)
    time.sleep(0.3)  # several more sweeps: still one timeout, still finished
    assert len(report(capi, match_id)["timeouts"]) == 1
    assert capi.match(match_id)["index"] == 1


def test_a_loss_on_time_in_a_game_with_hidden_cards_replays_and_verifies(capi: Api) -> None:
    match_id, tokens = create(capi, "go-fish", per_turn(0.5))
    wait_for(lambda: capi.match(match_id)["status"] == "finished", "the forfeit")
    info = capi.match(match_id)
    *dealt, lost = capi.actions(match_id)["actions"]
    assert dealt and all(action["type"] == "DealCard" for action in dealt)
    assert (lost["type"], lost["index"], info["index"]) == ("TimeExpired", len(dealt), len(dealt) + 1)
    assert (
        lost["metadata"]["winning_player_ids"] == info["winners"] and lost["player_id"] not in info["winners"]
    )
    before = capi.ok(
        capi.http.get(f"/api/matches/{match_id}/history/{len(dealt)}", headers=capi.auth(tokens[0]))
    )
    assert before["view"]["result"] is None and before["actions"][-1]["type"] == "DealCard"
    checked = capi.ok(capi.http.get(f"/api/matches/{match_id}/verification"))
    assert (checked["verified"], checked["problems"], checked["actions"]) == (True, [], len(dealt) + 1)
    assert checked["hidden"] > 0  # the dealt cards were hidden from the spectator, and replay all the same


def test_bot_policy_plays_one_move_for_the_seat_from_its_view(capi: Api) -> None:
    match_id, tokens = create(capi, "tic-tac-toe", per_turn(0.4, "bot"))
    wait_for(lambda: capi.match(match_id)["index"] >= 1, "the bot's move")
    first = capi.actions(match_id)["actions"][0]
    assert first["player_id"] == "p1" and first["id"].startswith("timeout-")
    timeouts = report(capi, match_id)["timeouts"]
    assert (timeouts[0]["player_id"], timeouts[0]["outcome"], timeouts[0]["action_id"]) == (
        "p1",
        "bot",
        first["id"],
    )
    # p2 plays in time: the clock restarts for p1, whose consecutive timeouts are counted
    view = capi.view(match_id, tokens[1])
    if view["valid_action_types"]:
        body = {**view["legal_actions"][0], "index": view["index"]}
        response = capi.post_action(match_id, tokens[1], body)
        assert response.status_code in (200, 409), response.text


def test_pass_policy_plays_the_games_pass_action(capi: Api) -> None:
    for _ in range(20):  # a roll of 1 ends the turn at once (about 1 in 6): try another match
        match_id, tokens = create(capi, "pig", per_turn(1.5, "pass"))
        rolled = capi.post_action(match_id, tokens[0], {"type": "Roll", "index": 0})
        assert rolled.status_code == 200, rolled.text
        if rolled.json()["view"]["turn_total"] > 0:
            break
    else:
        raise AssertionError("twenty first rolls of 1")
    head = capi.match(match_id)["index"]
    wait_for(lambda: capi.match(match_id)["index"] > head, "the pass")
    played = capi.actions(match_id, after=head - 1)["actions"][0]
    assert (played["type"], played["player_id"]) == ("Hold", "p1")
    assert played["id"].startswith("timeout-")
    assert report(capi, match_id)["timeouts"][0]["outcome"] == "pass"


def test_pass_without_a_pass_now_falls_back_to_the_bot(capi: Api) -> None:
    match_id, _ = create(capi, "pig", per_turn(0.4, "pass"))  # nothing rolled: Hold is not legal
    wait_for(lambda: report(capi, match_id)["timeouts"], "the timeout")
    first = report(capi, match_id)["timeouts"][0]
    assert (first["player_id"], first["outcome"]) == ("p1", "bot")
    wait_for(lambda: capi.match(match_id)["index"] >= 1, "the bot's roll")
    assert capi.actions(match_id)["actions"][0]["type"] == "Roll"


def test_a_chess_clock_charges_the_mover_and_adds_the_increment(capi: Api) -> None:
    clock = {"control": {"type": "chess", "main_seconds": 60, "increment_seconds": 5}}
    match_id, tokens = create(capi, "tic-tac-toe", clock)
    before = {seat["player_id"]: seat for seat in capi.view(match_id, tokens[0])["clock"]["seats"]}
    assert before["p1"]["running"] and not before["p2"]["running"]
    assert 0 < before["p1"]["remaining_ms"] <= 60_000 and before["p2"]["remaining_ms"] == 60_000
    body = {"type": "PlaceMark", "square": {"x": 1, "y": 1}, "index": 0}
    assert capi.post_action(match_id, tokens[0], body).status_code == 200
    wait_for(lambda: capi.view(match_id)["clock"]["index"] == 1, "the clock to catch up")
    seats = {seat["player_id"]: seat for seat in capi.view(match_id)["clock"]["seats"]}
    assert not seats["p1"]["running"] and seats["p2"]["running"]
    assert 60_000 < seats["p1"]["remaining_ms"] <= 65_000  # charged a moment, credited 5 s
    server_time = datetime.fromisoformat(capi.view(match_id)["clock"]["server_time"])
    assert abs(server_time - datetime.now(UTC)) < timedelta(seconds=30)


def test_correspondence_deadline_with_the_servers_clock_moved_ahead(clocked: LiveServer, capi: Api) -> None:
    """The keeper's clock is injectable: two days later, without waiting two days."""
    clock = {"control": {"type": "correspondence", "days": 1}, "policy": {"on_timeout": "forfeit"}}
    match_id, _ = create(capi, "tic-tac-toe", clock)
    seat = capi.view(match_id)["clock"]["seats"][0]
    assert 86_000_000 < seat["remaining_ms"] <= 86_400_000
    time.sleep(0.3)
    assert capi.match(match_id)["status"] == "in_progress"
    keeper = clocked.app.state.clocks
    keeper.now = lambda: datetime.now(UTC) + timedelta(days=2)
    wait_for(lambda: capi.match(match_id)["status"] == "finished", "the forfeit")
    assert capi.match(match_id)["winners"] == ["p2"]


def test_a_deadline_that_passed_while_the_server_was_down_is_handled_at_start(migrated_url: str) -> None:
    with live_server(migrated_url, clock_poll_seconds=60) as first:  # looks once, at start only
        api = Api(first.url)
        match_id, _ = create(api, "tic-tac-toe", per_turn(0.3))
        api.close()
    time.sleep(0.5)  # the deadline passes while no server runs
    with live_server(migrated_url, clock_poll_seconds=60) as second:
        api = Api(second.url)
        try:
            wait_for(lambda: api.match(match_id)["status"] == "finished", "the forfeit at start")
            assert api.match(match_id)["winners"] == ["p2"]
            (timeout,) = report(api, match_id)["timeouts"]
            (lost,) = api.actions(match_id)["actions"]  # recorded once, by the second server
            assert (lost["type"], lost["id"]) == ("TimeExpired", timeout["action_id"])
            observed, due = (datetime.fromisoformat(lost[key]) for key in ("observed_at", "due_at"))
            assert observed - due >= timedelta(seconds=0.2)  # what it saw: the time passed while down
        finally:
            api.close()


def test_two_workers_expire_each_clock_exactly_once(migrated_url: str) -> None:
    with live_server(migrated_url, **FAST) as one, live_server(migrated_url, **FAST) as two:
        apis = [Api(one.url), Api(two.url)]
        try:
            forfeits = [create(apis[n % 2], "tic-tac-toe", per_turn(0.3))[0] for n in range(4)]
            bots = [create(apis[n % 2], "tic-tac-toe", per_turn(0.3, "bot"))[0] for n in range(2)]
            for match_id in forfeits + bots:
                wait_for(partial(ended, apis[0], match_id), f"{match_id} to end")
            for match_id in forfeits:
                (timeout,) = report(apis[1], match_id)["timeouts"]
                log = apis[0].actions(match_id)["actions"]
                assert [(a["type"], a["id"]) for a in log] == [("TimeExpired", timeout["action_id"])]
            for match_id in bots:
                timeouts = report(apis[0], match_id)["timeouts"]
                keys = [(t["index"], t["player_id"]) for t in timeouts]
                assert len(keys) == len(set(keys))
                played = [t["action_id"] for t in timeouts if t["outcome"] == "bot"]
                log_ids = [action["id"] for action in apis[0].actions(match_id)["actions"]]
                assert played == [i for i in log_ids if i.startswith("timeout-")]
                assert len(log_ids) == apis[0].match(match_id)["index"]
            handled = one.app.state.clocks.expired + two.app.state.clocks.expired
            total = sum(len(report(apis[0], m)["timeouts"]) for m in forfeits + bots)
            superseded = sum(
                t["outcome"] == "superseded" for m in bots for t in report(apis[0], m)["timeouts"]
            )
            assert handled == total - superseded
        finally:
            for api in apis:
                api.close()


DAY = {"control": {"type": "correspondence", "days": 1}, "policy": {"on_timeout": "forfeit"}}
PLACE = {"type": "PlaceMark", "square": {"x": 1, "y": 1}, "index": 0}


def seat_clocks(api: Api, match_id: str) -> dict[str, Json]:
    return {seat["player_id"]: seat for seat in api.view(match_id)["clock"]["seats"]}


def later(days: float) -> Callable[[], datetime]:
    return lambda: datetime.now(UTC) + timedelta(days=days)


def two_days_on(api: Api, keeper: Any) -> None:
    """Move the keeper's clock two days ahead, and wait until it has acted on it (a seated match's
    day ran out)."""
    seated, _ = create(api, "tic-tac-toe", DAY)
    keeper.now = later(2)
    wait_for(lambda: ended(api, seated), "a seated match's forfeit two days on")


def test_a_seats_clock_waits_until_a_player_takes_it(clocked: LiveServer, capi: Api) -> None:
    """An invitee is not timed before they arrive: each seat's clock starts when it is first taken."""
    keeper = clocked.app.state.clocks
    body = {"game": "tic-tac-toe", "seats": [{"name": "Ann"}, {"name": "Bo"}], "clock": DAY}
    match_id = capi.ok(capi.http.post("/api/matches", json=body), 201)["id"]
    assert not seat_clocks(capi, match_id)["p1"]["running"]
    two_days_on(capi, keeper)
    assert capi.match(match_id)["status"] == "in_progress"
    p1 = seat_clocks(capi, match_id)["p1"]
    assert (p1["running"], p1["timeouts"]) == (False, 0)
    assert report(capi, match_id)["timeouts"] == []
    keeper.now = later(0)
    ann = capi.join(match_id, "p1")  # her clock starts now, with the whole day
    p1 = seat_clocks(capi, match_id)["p1"]
    assert p1["running"] and 86_000_000 < p1["remaining_ms"] <= 86_400_000
    assert capi.post_action(match_id, ann, PLACE).status_code == 200
    wait_for(lambda: capi.view(match_id)["clock"]["index"] == 1, "the clock after the move")
    assert not seat_clocks(capi, match_id)["p2"]["running"]  # Bo's turn, but Bo has not come
    two_days_on(capi, keeper)
    assert capi.match(match_id)["status"] == "in_progress"
    assert report(capi, match_id)["timeouts"] == []
    keeper.now = later(0)
    capi.join(match_id, "p2")
    assert seat_clocks(capi, match_id)["p2"]["running"]
    keeper.now = later(2)  # now Bo's day runs out
    wait_for(lambda: ended(capi, match_id), "Bo's forfeit")
    assert capi.match(match_id)["winners"] == ["p1"]
    assert [t["player_id"] for t in report(capi, match_id)["timeouts"]] == ["p2"]


def test_a_seat_taken_on_one_worker_starts_its_clock_on_the_other(migrated_url: str) -> None:
    with live_server(migrated_url, **FAST) as one, live_server(migrated_url, **FAST) as two:
        first, second = Api(one.url), Api(two.url)
        try:
            body = {"game": "tic-tac-toe", "seats": [{"name": "Ann"}, {"name": "Bo"}], "clock": DAY}
            match_id = first.ok(first.http.post("/api/matches", json=body), 201)["id"]
            assert not seat_clocks(first, match_id)["p1"]["running"]
            ann = second.join(match_id, "p1")
            assert first.post_action(match_id, ann, PLACE).status_code == 200  # at once, on the other
            wait_for(lambda: first.view(match_id)["clock"]["index"] == 1, "the clock after the move")
            wait_for(lambda: second.view(match_id)["clock"]["index"] == 1, "the other worker's clock")
            assert not seat_clocks(second, match_id)["p2"]["running"]
            first.join(match_id, "p2")
            wait_for(lambda: seat_clocks(second, match_id)["p2"]["running"], "Bo's clock on the other worker")
            for server in (one, two):
                server.app.state.clocks.now = later(2)
            wait_for(lambda: ended(first, match_id), "Bo's forfeit")
            assert first.match(match_id)["winners"] == ["p1"]
            assert len(report(second, match_id)["timeouts"]) == 1
        finally:
            first.close()
            second.close()


def test_a_taken_seats_clock_starts_even_if_the_worker_stops_right_after_the_claim(
    migrated_url: str,
) -> None:
    """A claim on a worker that does not know the match's clock makes the clock due: a keeper
    starts the seat's clock without the joining request's own follow-up (here switched off, as if
    that worker had died after the commit)."""
    with live_server(migrated_url, **FAST) as one, live_server(migrated_url, **FAST) as two:
        first, second = Api(one.url), Api(two.url)
        try:
            two.app.state.service.after_join.clear()
            body = {"game": "tic-tac-toe", "seats": [{"name": "Ann"}, {"name": "Bo"}], "clock": DAY}
            match_id = first.ok(first.http.post("/api/matches", json=body), 201)["id"]
            second.join(match_id, "p1")
            wait_for(lambda: seat_clocks(first, match_id)["p1"]["running"], "Ann's clock, started by a sweep")
            assert 86_000_000 < seat_clocks(first, match_id)["p1"]["remaining_ms"] <= 86_400_000
        finally:
            first.close()
            second.close()
