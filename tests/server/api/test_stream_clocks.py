"""A clocked match's event stream: the clock each event carries is the one ``GET .../clock`` and
the view show, an action's in its ``update``, a change without an action as a ``clock`` event, on
a real server over SQLite and PostgreSQL (where a change without an action reaches every worker's
streams through the ``NOTIFY`` its transaction sends: a claim's, or the keeper's own write)."""

from __future__ import annotations

import queue
from datetime import UTC, datetime, timedelta
from typing import Any

from tabletop_fixtures.live_server import Api, Event, EventReader, LiveServer, live_server, open_stream
from tabletop_server.storage import upgrade

Json = Any

CHESS = {"control": {"type": "chess", "main_seconds": 60, "increment_seconds": 5}}
"""A minute each and five seconds a move: nothing runs out while a test runs."""
CENTRE = {"type": "PlaceMark", "square": {"x": 1, "y": 1}, "index": 0}
WAIT = 10.0
"""Seconds an awaited event may take (a bound, not a pause: the wait ends when it arrives)."""


def chess_match(api: Api) -> str:
    """A tic-tac-toe match on a chess clock, its seats not yet taken (a seat's clock waits for its player)."""
    body = {"game": "tic-tac-toe", "seats": [{"name": "Ann"}, {"name": "Bo"}], "clock": CHESS}
    match_id: str = api.ok(api.http.post("/api/matches", json=body), 201)["id"]
    return match_id


def next_event(reader: EventReader, name: str) -> Event:
    """The stream's next event, which must be ``name`` (nothing else happened meanwhile)."""
    try:
        event = reader.next(timeout=WAIT)
    except queue.Empty:
        raise AssertionError(f"no {name} event within {WAIT} s") from None
    assert event.event == name, (event.event, event.raw[:300])
    return event


def shown(api: Api, match_id: str) -> Json:
    """The clock as ``GET .../clock`` shows it."""
    return api.ok(api.http.get(f"/api/matches/{match_id}/clock"))["clock"]


def seats(clock: Json) -> dict[str, Json]:
    return {seat["player_id"]: seat for seat in clock["seats"]}


def assert_same_clock(sent: Json, read: Json) -> None:
    """``sent`` (an event's clock) and ``read`` (read after it) are one clock: the same settings,
    index and seats; each seat's time left is as of its own ``server_time`` (a running seat's is
    what is left until its ``due_at``, a stopped seat's is the same in both)."""
    assert {k: v for k, v in sent.items() if k not in ("seats", "server_time")} == {
        k: v for k, v in read.items() if k not in ("seats", "server_time")
    }
    sent_at, read_at = (datetime.fromisoformat(clock["server_time"]) for clock in (sent, read))
    assert sent_at <= read_at and abs(read_at - datetime.now(UTC)) < timedelta(seconds=30)
    for ours, theirs in zip(sent["seats"], read["seats"], strict=True):
        assert {k: v for k, v in ours.items() if k != "remaining_ms"} == {
            k: v for k, v in theirs.items() if k != "remaining_ms"
        }
        if not ours["running"]:
            assert ours["remaining_ms"] == theirs["remaining_ms"]
            continue
        for clock, seat in ((sent, ours), (read, theirs)):
            left = datetime.fromisoformat(seat["due_at"]) - datetime.fromisoformat(clock["server_time"])
            assert abs(left / timedelta(milliseconds=1) - seat["remaining_ms"]) <= 2, (clock, seat)
        assert theirs["remaining_ms"] <= ours["remaining_ms"]


def test_an_actions_update_carries_the_clock_the_match_shows(api: Api) -> None:
    match_id = chess_match(api)
    ann, bo = api.join(match_id, "p1"), api.join(match_id, "p2")
    reader = open_stream(api, match_id, ann)
    try:
        before = next_event(reader, "snapshot").data["clock"]
        assert (before["index"], seats(before)["p1"]["running"], seats(before)["p2"]["running"]) == (
            0,
            True,
            False,
        )
        assert api.post_action(match_id, ann, CENTRE).status_code == 200
        update = next_event(reader, "update")
        clock = update.data["clock"]
        assert (update.id, update.data["index"], clock["index"]) == (0, 1, 1)
        p1, p2 = seats(clock)["p1"], seats(clock)["p2"]
        assert not p1["running"] and 60_000 < p1["remaining_ms"] <= 65_000  # charged, credited 5 s
        assert p2["running"] and p2["due_at"] is not None and p2["remaining_ms"] <= 60_000
        assert_same_clock(clock, shown(api, match_id))
        assert_same_clock(clock, api.view(match_id, bo)["clock"])
    finally:
        reader.close()


def test_a_clock_that_changes_without_an_action_arrives_as_a_clock_event(
    server: LiveServer, api: Api
) -> None:
    """Bo takes his seat after Ann's move: his clock starts then, with no action, and Ann's stream
    is sent the new clock as a ``clock`` event (no id: the action log did not move)."""
    match_id = chess_match(api)
    ann = api.join(match_id, "p1")
    reader = open_stream(api, match_id, ann)
    try:
        next_event(reader, "snapshot")
        assert api.post_action(match_id, ann, CENTRE).status_code == 200
        waiting = next_event(reader, "update").data["clock"]
        assert waiting["index"] == 1
        assert seats(waiting)["p2"] == {**seats(waiting)["p2"], "running": False, "due_at": None}
        assert seats(waiting)["p2"]["remaining_ms"] == 60_000  # Bo's turn, but Bo has not come
        bo = api.join(match_id, "p2")
        event = next_event(reader, "clock")
        assert event.id is None
        clock = event.data
        assert clock["index"] == 1
        assert seats(clock)["p1"] == seats(waiting)["p1"]  # Ann's clock stopped: unchanged
        p2 = seats(clock)["p2"]
        assert p2["running"] and p2["due_at"] is not None and 50_000 < p2["remaining_ms"] <= 60_000
        assert_same_clock(clock, shown(api, match_id))
        assert_same_clock(clock, api.view(match_id, bo)["clock"])
    finally:
        reader.close()


def test_a_seat_taken_on_another_worker_sends_the_clock_to_this_workers_streams(postgres_url: str) -> None:
    """Several workers share a PostgreSQL database: Bo takes his seat on a worker that never saw the
    match's clock (it starts the clock after the claim), and Ann's stream on the other worker is
    sent the clock as a ``clock`` event."""
    upgrade(postgres_url)
    with live_server(postgres_url) as one, live_server(postgres_url) as two:
        first, second = Api(one.url), Api(two.url)
        try:
            match_id = chess_match(first)
            ann = first.join(match_id, "p1")
            reader = open_stream(first, match_id, ann)
            try:
                next_event(reader, "snapshot")
                assert first.post_action(match_id, ann, CENTRE).status_code == 200
                assert not seats(next_event(reader, "update").data["clock"])["p2"]["running"]
                second.join(match_id, "p2")
                clock = next_event(reader, "clock").data
                assert clock["index"] == 1 and seats(clock)["p2"]["running"]
                assert_same_clock(clock, shown(first, match_id))
            finally:
                reader.close()
        finally:
            first.close()
            second.close()
