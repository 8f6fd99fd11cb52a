"""Per-client rate limits: creations, seat claims, stream tokens and streams answer 429 with
Retry-After in the one error shape, change nothing, and count per client address."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tabletop_fixtures.live_server import Api, EventReader, LiveServer, live_server
from tabletop_server._ratelimit import client_key

LIMITS = {
    "rate_limit_create": 3,
    "rate_limit_claim": 2,
    "rate_limit_stream_token": 4,
    "rate_limit_stream": 100,
    "max_streams_per_client": 2,
}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    with live_server(f"sqlite:///{tmp_path / 'tabletop.sqlite3'}", **LIMITS) as running:
        yield running


@pytest.fixture
def api(server: LiveServer) -> Iterator[Api]:
    client = Api(server.url)
    yield client
    client.close()


def _client_from(server: LiveServer, address: str) -> httpx.Client:
    """A client whose connections come from another loopback address (another client)."""
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.url, transport=transport, timeout=30)


def _refused(response: httpx.Response, limit_words: str) -> int:
    assert response.status_code == 429, response.text
    body = response.json()
    assert body["code"] == "rate-limited"
    assert body["path"] is None
    assert limit_words in body["message"]
    retry = int(response.headers["Retry-After"])
    assert retry >= 1
    return retry


def _count(api: Api) -> int:
    return len(api.http.get("/api/matches", params={"limit": 500}).json()["matches"])


def test_match_creation_is_limited_per_client(server: LiveServer, api: Api) -> None:
    for _ in range(3):
        api.create("tic-tac-toe")
    body = {"game": "tic-tac-toe", "seats": [{"name": "A"}, {"name": "B"}]}
    retry = _refused(api.http.post("/api/matches", json=body), "create")
    assert retry <= 20  # 3 a minute: one more every 20 s
    assert _count(api) == 3  # the refused creation made nothing
    match_id = api.http.get("/api/matches").json()["matches"][0]["id"]
    _refused(api.http.post(f"/api/matches/{match_id}/fork", json={}), "create")  # a fork is a creation
    with _client_from(server, "127.0.0.2") as other:  # another client has its own allowance
        assert other.post("/api/matches", json=body).status_code == 201
    assert _count(api) == 4


def test_seat_claims_are_limited_per_client(server: LiveServer, api: Api) -> None:
    first, second = api.create("tic-tac-toe"), api.create("tic-tac-toe")
    api.join(first["id"], "p1")
    api.join(first["id"], "p2")
    _refused(api.http.post(f"/api/matches/{second['id']}/seats/p1"), "claim")
    assert not any(seat["occupied"] for seat in api.match(second["id"])["seats"])
    with _client_from(server, "127.0.0.3") as other:
        assert other.post(f"/api/matches/{second['id']}/seats/p1").status_code == 201


def test_stream_tokens_are_limited_per_client(api: Api) -> None:
    match = api.create("tic-tac-toe")
    for _ in range(4):
        api.stream_token(match["id"])
    _refused(api.http.post(f"/api/matches/{match['id']}/stream-tokens"), "stream-token")


def test_a_client_holds_a_bounded_number_of_open_streams(server: LiveServer, api: Api) -> None:
    match = api.create("tic-tac-toe")
    url = f"{server.url}/api/matches/{match['id']}/events"
    readers = [EventReader(url, {"stream_token": api.stream_token(match["id"])}).start() for _ in range(2)]
    try:
        for reader in readers:
            assert reader.next().event == "snapshot"
        token = api.stream_token(match["id"])
        response = api.http.get(url, params={"stream_token": token})
        _refused(response, "event streams open")
        readers.pop().close()
        deadline = time.monotonic() + 30  # the server notices the closed stream
        while True:
            with api.http.stream("GET", url, params={"stream_token": token}) as third:
                if third.status_code == 200:
                    break
                assert third.status_code == 429
            assert time.monotonic() < deadline, "the closed stream still counts"
            time.sleep(0.1)
    finally:
        for reader in readers:
            reader.close()


def test_the_default_settings_limit_creation_and_zero_lifts_a_limit(tmp_path: Path) -> None:
    from tabletop_server import Settings

    defaults = {name: Settings.model_fields[name].default for name in LIMITS}
    assert defaults["rate_limit_create"] == 60
    body = {"game": "tic-tac-toe", "seats": [{"name": "A"}, {"name": "B"}]}
    with live_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", **defaults) as running:
        client = Api(running.url)
        try:
            statuses = [client.http.post("/api/matches", json=body).status_code for _ in range(61)]
        finally:
            client.close()
    assert statuses[:60] == [201] * 60
    assert statuses[60] == 429
    with live_server(
        f"sqlite:///{tmp_path / 'db.sqlite3'}", **{**defaults, "rate_limit_create": 0}
    ) as running:
        client = Api(running.url)
        try:
            assert [client.http.post("/api/matches", json=body).status_code for _ in range(61)] == [201] * 61
        finally:
            client.close()


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("127.0.0.1", "127.0.0.1"),
        ("203.0.113.9", "203.0.113.9"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("2001:db8:1:2:ffff::1", "2001:db8:1:2::/64"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
        ("not-an-address", "not-an-address"),
        ("fe80::zz", "fe80::zz"),
    ],
)
def test_a_client_is_counted_by_its_address_and_ipv6_by_its_network(host: str, key: str) -> None:
    assert client_key({"type": "http", "client": (host, 4242)}) == key


def test_a_request_without_a_client_address_counts_as_one_unknown_client() -> None:
    assert client_key({"type": "http", "client": None}) == "unknown"
