"""What the outbox tests that drive a delivery worker themselves share.

``quiet_server`` runs the API over a database with its own worker's outbox loop idle (it would
first look after an hour), so a test's ``Courier``, on a ``StoppedClock`` it moves by hand, is
the only one that delivers; the other helpers are the API calls those tests make.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from tabletop_fixtures.live_server import Api, live_server
from tabletop_server.storage import DeliveryRow, Store

__all__ = [
    "StoppedClock",
    "deliveries",
    "play_one",
    "quiet_server",
    "recorded",
    "register",
    "seated",
    "until",
]

Json = dict[str, object]


@dataclass
class StoppedClock:
    """A clock that stands still at ``at`` until the test moves it (``Courier(now=...)``)."""

    at: datetime

    def __call__(self) -> datetime:
        return self.at


@contextmanager
def quiet_server(database_url: str) -> Iterator[Api]:
    """A client of a server whose own outbox loop stays idle for the test (its first poll is an
    hour away): deliveries are made by the test's courier only."""
    with live_server(database_url, webhook_poll_seconds=3600.0) as server:
        api = Api(server.url)
        try:
            yield api
        finally:
            api.close()


def seated(api: Api) -> tuple[str, dict[str, str]]:
    """A new tic-tac-toe match and the tokens of its two seats."""
    match = api.create("tic-tac-toe", 2, seed=3)
    return match["id"], {p: api.join(match["id"], p) for p in ("p1", "p2")}


def register(api: Api, match_id: str, token: str, url: str) -> None:
    """Register the seat's webhook."""
    response = api.http.post(f"/api/matches/{match_id}/webhook", json={"url": url}, headers=api.auth(token))
    api.ok(response, 201)


def play_one(api: Api, match_id: str, token: str) -> None:
    """The seat's first legal action, which must be accepted."""
    view = api.view(match_id, token)
    api.ok(api.post_action(match_id, token, view["legal_actions"][0]))


def deliveries(api: Api, match_id: str, token: str) -> list[Json]:
    """``GET .../webhook/deliveries`` of the seat."""
    response = api.http.get(f"/api/matches/{match_id}/webhook/deliveries", headers=api.auth(token))
    return api.ok(response)["deliveries"]  # type: ignore[no-any-return]


def until(check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    """Wait for ``check`` (``timeout`` only ends a test that would otherwise hang, as the receiver's
    ``wait_for`` does)."""
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {timeout} s"
        time.sleep(0.01)


def recorded(store: Store, match_id: str, player_id: str, attempts: int) -> DeliveryRow:
    """The seat's one delivery once the outcome of its attempt number ``attempts`` is recorded."""

    def done() -> bool:
        [row] = store.deliveries(match_id, player_id)
        return row.attempts == attempts and row.lease_until is None

    until(done, f"attempt {attempts} recorded")
    [row] = store.deliveries(match_id, player_id)
    return row
