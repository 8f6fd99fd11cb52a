"""Fan-out: many streams on one match share each change's work; silent clients hold nothing up.

With 200 streams on one match (50 never reading), every other request once slowed tenfold: each
stream recomputed the same update. Now streams in step share one computation per change, and the
readers still get every event, in order, beside clients that never read (dropping those is
``tests/server/events/test_fanout.py``: on loopback a socket buffers megabytes before it stalls).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Callable

import httpx
from tabletop_fixtures.live_server import Api, EventReader, live_server, open_stream

READERS_PER_PERSPECTIVE = 6
SILENT = 6
SETTINGS = {"stream_buffer_frames": 2, "stream_drop_seconds": 0.5, "keepalive_seconds": 0.2}


def _until(what: Callable[[], bool], message: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if what():
            return
        time.sleep(0.05)
    raise AssertionError(message)


def _silent(api: Api, match_id: str) -> socket.socket:
    """A client that opens a stream and never reads a byte (a tiny receive window)."""
    url = httpx.URL(api.url)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.connect((url.host, url.port or 80))
    target = f"/api/matches/{match_id}/events?stream_token={api.stream_token(match_id)}"
    sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {url.host}\r\n\r\n".encode())
    return sock


def test_streams_in_step_share_each_change_and_get_every_event(migrated_url: str) -> None:
    with live_server(migrated_url, **SETTINGS) as server:
        api = Api(server.url)
        match_id = api.create("go-fish", [{"name": "Ann"}, {"name": "Bob"}], seed=11)["id"]
        tokens = {player: api.join(match_id, player) for player in ("p1", "p2")}
        perspectives: list[str | None] = [None, "p1", "p2"]
        readers: dict[str | None, list[EventReader]] = {
            p: [
                open_stream(api, match_id, None if p is None else tokens[p])
                for _ in range(READERS_PER_PERSPECTIVE)
            ]
            for p in perspectives
        }
        for group in readers.values():
            for reader in group:
                assert reader.next(timeout=30).event == "snapshot"
        silent = [_silent(api, match_id) for _ in range(SILENT)]
        service = server.app.state.service
        _until(lambda: service.streams.open == 3 * READERS_PER_PERSPECTIVE + SILENT, "streams did not open")
        steps = server.app.state.stream_steps
        before = steps.computed
        changes = 0
        while changes < 200:
            views = {p: api.view(match_id, tokens[p]) for p in ("p1", "p2")}
            if views["p1"]["status"] != "in_progress":
                break
            player = next(p for p, view in views.items() if view["legal_actions"])
            api.ok(api.post_action(match_id, tokens[player], views[player]["legal_actions"][0]))
            changes += 1
        head = api.match(match_id)["index"]
        for perspective, group in readers.items():
            final = api.view(match_id, None if perspective is None else tokens[perspective])
            for reader in group:
                events = reader.until_index(head, timeout=60)
                assert events[-1].data["view"] == final["view"]  # every delta applied, in order
                assert all(event.event == "update" for event in events)
        shared = steps.computed - before
        assert shared <= changes * len(perspectives) * 2 < changes * 3 * READERS_PER_PERSPECTIVE / 2
        for group in readers.values():
            for reader in group:
                reader.close()
        for sock in silent:
            sock.close()
        _until(lambda: service.streams.open == 0, "the streams did not close")
        api.close()
