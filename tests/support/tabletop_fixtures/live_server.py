"""A real ``tabletop_server`` on a loopback port for the API tests, and a small client for it.

``live_server(url)`` runs uvicorn in a thread (an in-process ASGI transport cannot stream
server-sent events) on a free 127.0.0.1 port; ``Api`` wraps an ``httpx.Client`` with the calls
the tests make; ``EventReader`` follows one event stream in a background thread.
"""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import uvicorn
from tabletop_server.events import DeltaError, apply_delta

__all__ = [
    "NO_RATE_LIMITS",
    "NO_RATE_LIMITS_ENV",
    "Api",
    "Event",
    "EventReader",
    "LiveServer",
    "free_port",
    "live_server",
    "open_stream",
]

Json = Any


NO_RATE_LIMITS: dict[str, object] = {
    "rate_limit_create": 0,
    "rate_limit_claim": 0,
    "rate_limit_stream_token": 0,
    "rate_limit_stream": 0,
    "max_streams_per_client": 0,
}
"""Settings that lift the per-client limits: every test client is 127.0.0.1 (the limits' own
tests set them)."""

NO_RATE_LIMITS_ENV = {f"TABLETOP_{name.upper()}": str(value) for name, value in NO_RATE_LIMITS.items()}
"""``NO_RATE_LIMITS`` as the environment of a ``tabletop serve`` subprocess."""

KEPT_DOCUMENTS = 8
"""How many of a connection's last documents the reader keeps as delta bases (as the TS client)."""


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class LiveServer:
    """A running server: its base URL and the app (``app.state.service`` once started)."""

    url: str
    app: Any
    server: uvicorn.Server


@contextmanager
def live_server(database_url: str, **settings: object) -> Iterator[LiveServer]:
    """Run the server on a free loopback port until the block ends."""
    from tabletop_server import Settings, create_app

    options: dict[str, object] = {"ui_dir": None, "keepalive_seconds": 1.0, **NO_RATE_LIMITS, **settings}
    app = create_app(Settings(db=database_url, **options))  # type: ignore[arg-type]
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=2, lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="tabletop-live-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            msg = "the server did not start"
            raise RuntimeError(msg)
        time.sleep(0.01)
    try:
        yield LiveServer(f"http://127.0.0.1:{port}", app, server)
    finally:
        server.should_exit = True
        thread.join(timeout=15)


class Api:
    """The HTTP calls of the tests, on one ``httpx.Client``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = httpx.Client(base_url=url, timeout=30)

    def close(self) -> None:
        """Close the connection pool."""
        self.http.close()

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        """The ``Authorization`` header of a seat token (none for a spectator)."""
        return {} if token is None else {"Authorization": f"Bearer {token}"}

    def ok(self, response: httpx.Response, status: int = 200) -> Json:
        """The JSON of a response that must have ``status``."""
        assert response.status_code == status, (response.status_code, response.text[:500])
        return response.json()

    def create(
        self,
        game: str,
        seats: int | list[Mapping[str, object]] = 2,
        *,
        seed: int | None = 7,
        config: Json = None,
    ) -> Json:
        """Create a match; returns its ``MatchInfo``."""
        seat_list = [{"name": f"Seat {n}"} for n in range(1, seats + 1)] if isinstance(seats, int) else seats
        body: dict[str, object] = {"game": game, "seats": seat_list, "seed": seed}
        if config is not None:
            body["config"] = config
        return self.ok(self.http.post("/api/matches", json=body), 201)

    def join(self, match_id: str, player_id: str) -> str:
        """Take a seat; returns its token."""
        return str(self.ok(self.http.post(f"/api/matches/{match_id}/seats/{player_id}"), 201)["token"])

    def view(self, match_id: str, token: str | None = None) -> Json:
        """The caller's ``ViewResponse``."""
        return self.ok(self.http.get(f"/api/matches/{match_id}/view", headers=self.auth(token)))

    def match(self, match_id: str) -> Json:
        """The ``MatchInfo``."""
        return self.ok(self.http.get(f"/api/matches/{match_id}"))

    def actions(self, match_id: str, token: str | None = None, after: int = -1) -> Json:
        """The projected log after ``after``."""
        return self.ok(
            self.http.get(
                f"/api/matches/{match_id}/actions", params={"after": after}, headers=self.auth(token)
            )
        )

    def log(self, match_id: str, token: str | None = None) -> list[Json]:
        """The whole projected log, read page by page (``next_after``) as a client must."""
        found: list[Json] = []
        after: int | None = -1
        while after is not None:
            page = self.actions(match_id, token, after)
            found += page["actions"]
            after = page["next_after"]
        return found

    def post_action(
        self, match_id: str, token: str | None, body: Json, *, headers: Mapping[str, str] | None = None
    ) -> httpx.Response:
        """Submit ``body`` (its ``type`` picks the route) as the token's seat."""
        kind = body["type"]
        return self.http.post(
            f"/api/matches/{match_id}/actions/{kind}",
            json=body,
            headers={**self.auth(token), **(headers or {})},
        )

    def stream_token(self, match_id: str, token: str | None = None) -> str:
        """A single-use stream token for the caller's perspective."""
        response = self.http.post(f"/api/matches/{match_id}/stream-tokens", headers=self.auth(token))
        return str(self.ok(response, 201)["stream_token"])


@dataclass
class Event:
    """One server-sent event. For an ``update``, ``data`` is the event's whole document (the
    ``ViewResponse`` plus ``actions``), rebuilt from its delta; ``raw`` is what was on the wire."""

    event: str
    id: int | None
    data: Json
    raw: str


@dataclass
class EventReader:
    """Follows one event stream in a thread; ``events`` fills as frames arrive."""

    url: str
    params: dict[str, str]
    headers: dict[str, str] = field(default_factory=dict)
    events: queue.Queue[Event] = field(default_factory=queue.Queue)
    comments: list[str] = field(default_factory=list)
    documents: dict[int, Json] = field(default_factory=dict)
    status: int | None = None
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _client: httpx.Client | None = None
    _response: httpx.Response | None = None

    def start(self) -> EventReader:
        """Connect and start reading."""
        self._client = httpx.Client(timeout=httpx.Timeout(30, read=60))
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        assert self._client is not None
        try:
            with self._client.stream("GET", self.url, params=self.params, headers=self.headers) as response:
                self._response = response
                self.status = response.status_code
                fields: dict[str, str] = {}
                for line in response.iter_lines():
                    if self._stop.is_set():
                        return
                    if line.startswith(":"):
                        self.comments.append(line)
                    elif not line:
                        if "data" in fields:
                            raw = fields["data"]
                            event_id = int(fields["id"]) if "id" in fields else None
                            name = fields.get("event", "message")
                            try:
                                data = self._document(name, event_id, json.loads(raw))
                            except DeltaError as error:  # the test sees it instead of the event
                                name, data = "delta-error", {"error": str(error), "index": -1}
                            self.events.put(Event(name, event_id, data, raw))
                        fields = {}
                    else:
                        name, _, value = line.partition(":")
                        fields[name] = value[1:] if value.startswith(" ") else value
        except (httpx.HTTPError, RuntimeError, OSError, ValueError):
            return

    def _document(self, name: str, event_id: int | None, data: Json) -> Json:
        """The event's document: a ``snapshot``/``reset`` as sent, an ``update`` applied to its base."""
        if event_id is None or name not in ("snapshot", "reset", "update"):
            return data
        if name == "update":
            base = data["base"]
            if base is not None and base not in self.documents:
                raise DeltaError(f"update {event_id} is based on {base}, which this connection did not send")
            data = apply_delta(None if base is None else self.documents[base], data["patch"])
        else:
            data = {**data, "actions": []}
            self.documents.clear()  # the server builds on nothing older (ids may repeat after an undo)
        self.documents.pop(event_id, None)  # re-inserted last
        self.documents[event_id] = data
        while len(self.documents) > KEPT_DOCUMENTS:  # by count, as @tabletop/client keeps them
            del self.documents[next(iter(self.documents))]
        return data

    def next(self, timeout: float = 10) -> Event:
        """The next event (fails the test after ``timeout`` seconds)."""
        return self.events.get(timeout=timeout)

    def until_index(self, index: int, timeout: float = 20) -> list[Event]:
        """Events until one whose data ``index`` reaches ``index``."""
        got: list[Event] = []
        deadline = time.monotonic() + timeout
        while True:
            event = self.events.get(timeout=max(0.01, deadline - time.monotonic()))
            got.append(event)
            if event.data.get("index", -1) >= index:
                return got

    def close(self) -> None:
        """Stop reading and drop the connection."""
        self._stop.set()
        if self._response is not None:
            self._response.close()
        if self._client is not None:
            self._client.close()
        if self._thread is not None:
            self._thread.join(timeout=5)


def open_stream(
    api: Api, match_id: str, token: str | None = None, last_event_id: int | None = None
) -> EventReader:
    """Follow a match's events from the caller's perspective (a fresh stream token each time)."""
    params = {"stream_token": api.stream_token(match_id, token)}
    headers = {} if last_event_id is None else {"Last-Event-ID": str(last_event_id)}
    return EventReader(f"{api.url}/api/matches/{match_id}/events", params, headers).start()
