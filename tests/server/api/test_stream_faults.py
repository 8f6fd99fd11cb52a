"""Event streams end when their seat is lost or their first read fails, and spend no token then."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import psycopg
import pytest
from tabletop_fixtures.live_server import Api, EventReader, LiveServer, live_server, open_stream
from tabletop_server.storage import StorageUnavailableError


def _finished(reader: EventReader, timeout: float = 30) -> bool:
    """True once the server closed the stream (the reader's thread ends with the response)."""
    assert reader._thread is not None
    reader._thread.join(timeout)
    return not reader._thread.is_alive()


def test_a_left_seat_ends_its_streams_and_its_unused_stream_tokens(server: LiveServer, api: Api) -> None:
    match_id = api.create("go-fish", [{"name": "Ann"}, {"name": "Cy"}], seed=5)["id"]
    ann = api.join(match_id, "p1")
    cy = api.join(match_id, "p2")
    minted = api.stream_token(match_id, ann)  # minted before leaving, never used
    stream = open_stream(api, match_id, ann)
    spectator = open_stream(api, match_id)
    assert stream.next().event == "snapshot" and spectator.next().event == "snapshot"
    left = api.http.delete(f"/api/matches/{match_id}/seats/p1", headers=api.auth(ann))
    assert left.status_code == 204, left.text
    end = stream.next(timeout=30)
    assert end.event == "end" and end.id is None
    assert end.data == {
        "code": "invalid-token",
        "message": "the seat token that opened this stream no longer holds the seat",
        "path": None,
    }
    assert _finished(stream)
    bob = api.join(match_id, "p1")  # the newcomer's hand is the seat's from now on
    view = api.view(match_id, bob)
    mover = bob if "p1" in view["view"]["active_player_ids"] else cy
    api.ok(api.post_action(match_id, mover, api.view(match_id, mover)["legal_actions"][0]))
    assert spectator.until_index(api.match(match_id)["index"])  # the change reached the streams
    assert stream.events.empty()  # nothing after the end
    reused = api.http.get(f"/api/matches/{match_id}/events", params={"stream_token": minted})
    assert (reused.status_code, reused.json()["code"]) == (401, "invalid-stream-token")
    stale = api.http.post(f"/api/matches/{match_id}/stream-tokens", headers=api.auth(ann))
    assert (stale.status_code, stale.json()["code"]) == (401, "invalid-token")
    fresh = open_stream(api, match_id, bob)
    assert fresh.next().data["player_id"] == "p1"
    for reader in (stream, spectator, fresh):
        reader.close()


@pytest.fixture
def slow_server(postgres_url: str) -> Iterator[LiveServer]:
    """A server whose PostgreSQL statements time out after half a second."""
    from tabletop_server.storage import upgrade

    upgrade(postgres_url)
    with live_server(postgres_url, db_statement_timeout=0.5) as running:
        yield running


def test_a_stream_whose_first_read_times_out_ends_at_once_and_keeps_its_token(
    slow_server: LiveServer, postgres_url: str
) -> None:
    api = Api(slow_server.url)
    match_id = api.create("tic-tac-toe", 2)["id"]
    token = api.stream_token(match_id)
    url = f"{api.url}/api/matches/{match_id}/events"
    with psycopg.connect(postgres_url.replace("postgresql+psycopg://", "postgresql://", 1)) as blocker:
        blocker.execute("LOCK TABLE matches IN ACCESS EXCLUSIVE MODE")  # the snapshot's read waits
        failed = EventReader(url, {"stream_token": token}).start()
        end = failed.next(timeout=30)
        assert _finished(failed)
        blocker.rollback()
    failed.close()
    assert failed.status == 200
    assert end.event == "end" and end.data["code"] == "storage-unavailable"
    retried = EventReader(url, {"stream_token": token}).start()  # the same token: still unused
    assert retried.next(timeout=30).event == "snapshot"
    retried.close()
    api.close()


def test_a_stream_whose_read_fails_mid_stream_reads_again_without_another_change(
    monkeypatch: pytest.MonkeyPatch, server: LiveServer, api: Api
) -> None:
    """The update it could not read may be the last change for a while (its player's turn)."""
    match_id = api.create("tic-tac-toe", [{"name": "Ann"}, {"name": "Bo"}], seed=1)["id"]
    ann = api.join(match_id, "p1")
    bo = api.join(match_id, "p2")
    stream = open_stream(api, match_id, bo)
    assert stream.next().event == "snapshot"
    service = server.app.state.service
    load = service.load
    failures = [0]

    def failing(wanted: str) -> object:  # the streams read in the thread pool of the event loop
        if threading.current_thread().name.startswith("AnyIO worker") and failures[0] < 1:
            failures[0] += 1
            raise StorageUnavailableError("the database is away")
        return load(wanted)

    monkeypatch.setattr(service, "load", failing)
    api.ok(api.post_action(match_id, ann, api.view(match_id, ann)["legal_actions"][0]))
    [*_, update] = stream.until_index(1, timeout=15)
    assert failures[0] == 1 and update.event == "update" and update.id == 0
    stream.close()
