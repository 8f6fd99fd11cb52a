"""A rematch keeps the time control: each seat's clock waits until its holder takes the seat
through the rematch call, then runs; bots stay bots and are never waited for; an untimed
match's rematch stays untimed."""

from __future__ import annotations

import time

from tabletop_fixtures.live_server import Api, Json, live_server

from tests.server.api.test_clocks import wait_for
from tests.server.hosting.play import play_to_the_end

CHESS = {
    "control": {"type": "chess", "main_seconds": 60, "increment_seconds": 30},
    "policy": {"on_timeout": "bot"},
}
PLACE = {"type": "PlaceMark", "square": {"x": 1, "y": 1}, "index": 0}
HUMANS = [{"name": "Ann"}, {"name": "Bob"}]


def _finished(
    api: Api, seats: list[Json], clock: Json = None, visibility: str = "public"
) -> tuple[str, dict[str, str]]:
    """A tic-tac-toe match with ``clock``, its human seats taken and played to the end: its id
    and the seat tokens."""
    body = {"game": "tic-tac-toe", "seats": seats, "seed": 3, "visibility": visibility}
    if clock is not None:
        body["clock"] = clock
    created = api.ok(api.http.post("/api/matches", json=body), 201)
    match_id = created["id"]
    tokens = {}
    for invite in created["invites"]:
        seat = f"/api/matches/{match_id}/seats/{invite['player_id']}"
        tokens[invite["player_id"]] = api.ok(api.http.post(seat, json={"invite": invite["invite"]}), 201)[
            "token"
        ]
    play_to_the_end(api, match_id, tokens, seed=1)
    return match_id, tokens


def _rematch(api: Api, match_id: str, token: str) -> Json:
    return api.ok(api.http.post(f"/api/matches/{match_id}/rematch", headers=api.auth(token)))


def _clock(api: Api, match_id: str) -> Json:
    """The clock of the match's info."""
    return api.match(match_id)["clock"]


def _seats(clock: Json) -> dict[str, Json]:
    return {seat["player_id"]: seat for seat in clock["seats"]}


def _settings(clock: Json) -> Json:
    return {"control": clock["control"], "policy": clock["policy"]}


def test_a_rematch_keeps_the_chess_clock_and_each_seats_clock_starts_with_its_rematch_call(api: Api) -> None:
    match_id, tokens = _finished(api, HUMANS, CHESS)
    kept = _settings(_clock(api, match_id))
    assert (kept["control"]["increment_seconds"], kept["policy"]["on_timeout"]) == (30, "bot")
    bob = _rematch(api, match_id, tokens["p2"])  # Bob asks first: Ann, who moves first, is not there yet
    new_id = bob["match"]["id"]
    assert _settings(bob["match"]["clock"]) == kept
    assert [seat["occupied"] for seat in bob["match"]["seats"]] == [False, True]
    time.sleep(0.3)
    report = api.ok(api.http.get(f"/api/matches/{new_id}/clock"))
    assert _settings(report["clock"]) == kept and report["timeouts"] == []
    waiting = _seats(report["clock"])["p1"]
    assert (waiting["running"], waiting["due_at"], waiting["remaining_ms"]) == (False, None, 60_000)
    ann = _rematch(api, match_id, tokens["p1"])  # her seat's clock starts now
    assert ann["match"]["id"] == new_id
    started = _seats(ann["match"]["clock"])["p1"]
    assert started["running"] and started["due_at"] is not None and started["remaining_ms"] <= 60_000
    time.sleep(0.3)
    running = _seats(_clock(api, new_id))["p1"]
    assert running["running"] and running["remaining_ms"] < 60_000 - 200
    again = _rematch(api, match_id, tokens["p1"])  # a fresh token: the clock runs on, not started again
    assert again["token"] != ann["token"]
    assert _seats(again["match"]["clock"])["p1"]["remaining_ms"] <= running["remaining_ms"]
    stale = api.http.get(f"/api/matches/{new_id}/view", headers=api.auth(ann["token"]))
    assert (stale.status_code, stale.json()["code"]) == (401, "invalid-token")
    assert api.post_action(new_id, again["token"], PLACE).status_code == 200
    wait_for(lambda: _clock(api, new_id)["index"] == 1, "the clock after Ann's move")
    after = _seats(_clock(api, new_id))
    assert not after["p1"]["running"] and after["p2"]["running"]  # Bob took his seat with his call
    assert 60_000 < after["p1"]["remaining_ms"] <= 90_000  # charged a moment, credited 30 s


def test_a_timed_rematch_keeps_its_bots_and_never_waits_for_them(api: Api) -> None:
    robo = {"name": "Robo", "bot": {"kind": "random"}}
    match_id, tokens = _finished(api, [robo, {"name": "Ann"}], CHESS)
    answer = _rematch(api, match_id, tokens["p2"])
    new_id = answer["match"]["id"]
    assert [(seat["name"], seat["bot"] and seat["bot"]["kind"]) for seat in answer["match"]["seats"]] == [
        ("Robo", "random"),
        ("Ann", None),
    ]
    assert _settings(answer["match"]["clock"]) == _settings(_clock(api, match_id))
    wait_for(lambda: _clock(api, new_id)["index"] == 1, "the bot's first move on its clock")
    seats = _seats(_clock(api, new_id))
    assert 60_000 < seats["p1"]["remaining_ms"] < 90_000  # the bot's clock ran, then got the increment
    wait_for(lambda: _seats(_clock(api, new_id))["p2"]["running"], "Ann's clock, to move")


def test_a_private_timed_rematch_seats_its_holders_and_no_one_else(api: Api) -> None:
    match_id, tokens = _finished(api, HUMANS, CHESS, visibility="private")
    ann = _rematch(api, match_id, tokens["p1"])
    new_id = ann["match"]["id"]
    assert ann["match"]["visibility"] == "private"
    stranger = api.http.post(f"/api/matches/{new_id}/seats/p2")
    assert (stranger.status_code, stranger.json()["code"]) == (403, "invite-required")
    bob = _rematch(api, match_id, tokens["p2"])
    assert [api.view(new_id, answer["token"])["player_id"] for answer in (ann, bob)] == ["p1", "p2"]
    assert _seats(_clock(api, new_id))["p1"]["running"]


def test_the_rematch_of_an_untimed_match_stays_untimed(api: Api) -> None:
    match_id, tokens = _finished(api, HUMANS)
    ann = _rematch(api, match_id, tokens["p1"])
    new_id = ann["match"]["id"]
    assert ann["match"]["clock"] is None
    _rematch(api, match_id, tokens["p2"])
    assert api.post_action(new_id, ann["token"], PLACE).status_code == 200
    assert api.ok(api.http.get(f"/api/matches/{new_id}/clock")) == {
        "clock": None,
        "timeouts": [],
        "stand_ins": [],
    }
    assert api.match(new_id)["clock"] is None


def test_a_seat_taken_through_a_rematch_call_on_another_worker_starts_its_clock(migrated_url: str) -> None:
    """The rematch made on one worker, the other seat taken on a worker that does not know its
    clock: the claim makes the clock due and a keeper starts the seat's clock."""
    fast = {"clock_poll_seconds": 0.05}
    with live_server(migrated_url, **fast) as one, live_server(migrated_url, **fast) as two:
        first, second = Api(one.url), Api(two.url)
        try:
            match_id, tokens = _finished(first, HUMANS, CHESS)
            new_id = _rematch(first, match_id, tokens["p2"])["match"]["id"]
            assert not _seats(_clock(first, new_id))["p1"]["running"]
            _rematch(second, match_id, tokens["p1"])
            wait_for(
                lambda: _seats(_clock(first, new_id))["p1"]["running"], "Ann's clock, started on the other"
            )
            assert _settings(_clock(second, new_id)) == _settings(_clock(first, match_id))
        finally:
            first.close()
            second.close()
