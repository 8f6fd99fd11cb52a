"""Liveness, readiness (and the warm-up that waits for the database) and Prometheus metrics,
against a real server."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tabletop_fixtures.live_server import Api, LiveServer, live_server, open_stream


def scrape(http: httpx.Client) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``/metrics`` as {(sample name, sorted labels): value}."""
    response = http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain")
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return samples


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def wait_for(condition: object, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def server(migrated_url: str) -> Iterator[LiveServer]:
    with live_server(migrated_url, rate_limit_create=3) as running:
        yield running


@pytest.fixture
def api(server: LiveServer) -> Iterator[Api]:
    client = Api(server.url)
    yield client
    client.close()


def test_live_and_ready_on_a_migrated_database(api: Api) -> None:
    assert api.ok(api.http.get("/livez")) == {"status": "alive"}
    assert api.ok(api.http.get("/readyz")) == {"status": "ready"}
    document = api.ok(api.http.get("/api/openapi.json"))
    assert not {"/livez", "/readyz", "/metrics"} & set(document["paths"])


def test_metrics_count_requests_refusals_actions_streams_and_bots(api: Api) -> None:
    before = scrape(api.http)
    bots = api.create(
        "tic-tac-toe", [{"name": "A", "bot": {"kind": "random"}}, {"name": "B", "bot": {"kind": "random"}}]
    )
    match = api.create("tic-tac-toe")
    tokens = {player: api.join(match["id"], player) for player in ("p1", "p2")}
    api.ok(api.post_action(match["id"], tokens["p1"], {"type": "PlaceMark", "square": {"x": 0, "y": 0}}))
    body = {"game": "tic-tac-toe", "seats": [{"name": "A"}, {"name": "B"}]}
    assert api.http.post("/api/matches", json=body).status_code == 201
    assert api.http.post("/api/matches", json=body).status_code == 429
    assert api.http.get("/api/matches/nope/view").status_code == 404
    wait_for(lambda: api.match(bots["id"])["status"] == "finished", "the bots did not finish")
    reader = open_stream(api, match["id"], tokens["p2"])
    try:
        assert reader.next().event == "snapshot"
        during = scrape(api.http)
    finally:
        reader.close()
    after = scrape(api.http)

    def grew(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert grew("tabletop_http_requests_total", route="/api/matches", method="POST", status="201") == 3
    assert grew("tabletop_http_requests_total", route="/api/matches", method="POST", status="429") == 1
    assert (
        grew("tabletop_http_requests_total", route="/api/matches/{match_id}/view", method="GET", status="404")
        == 1
    )
    action = "/api/matches/{match_id}/actions/PlaceMark"
    assert grew("tabletop_http_requests_total", route=action, method="POST", status="200") == 1
    assert grew("tabletop_http_request_duration_seconds_count", route=action, method="POST") == 1
    assert grew("tabletop_http_request_duration_seconds_sum", route=action, method="POST") > 0
    assert grew("tabletop_rate_limited_total", limit="create") == 1
    assert grew("tabletop_bot_decision_seconds_count", kind="random") >= 5  # a bot game has 5+ moves
    assert value(during, "tabletop_event_streams_open") - value(before, "tabletop_event_streams_open") == 1
    wait_for(
        lambda: (
            value(scrape(api.http), "tabletop_event_streams_open")
            == value(before, "tabletop_event_streams_open")
        ),
        "the closed stream is still counted",
    )
    assert value(after, "tabletop_bot_queue_depth") == 0


def test_unknown_paths_share_one_label(api: Api) -> None:
    for n in range(5):
        api.http.get(f"/api/nothing-{n}")
        api.http.post(f"/api/matches/m{n}/actions/Made{n}Up", json={})
    samples = scrape(api.http)
    routes = {dict(labels).get("route") for name, labels in samples if name == "tabletop_http_requests_total"}
    assert "/api/{unknown}" in routes
    assert "/api/matches/{match_id}/actions/{unknown}" in routes
    assert not any("nothing-" in str(route) or "Made" in str(route) for route in routes)


def test_a_worker_starts_before_its_schema_exists_and_serves_once_it_does(tmp_path: Path) -> None:
    from tabletop_server.storage import upgrade

    url = f"sqlite:///{tmp_path / 'late.sqlite3'}"
    with live_server(url, migrate=False) as running:  # nobody migrated this database
        client = Api(running.url)
        try:
            assert client.ok(client.http.get("/livez")) == {"status": "alive"}
            not_ready = client.http.get("/readyz")
            assert not_ready.status_code == 503
            assert not_ready.json()["code"] == "not-ready"
            refused = client.http.post("/api/matches", json={"game": "tic-tac-toe", "seats": [{}, {}]})
            assert refused.status_code == 503
            assert refused.json()["code"] == "storage-unavailable"
            assert refused.headers["Retry-After"] == "1"
            upgrade(url)  # the migrations arrive (another worker, or `tabletop db upgrade`)
            wait_for(lambda: client.http.get("/readyz").status_code == 200, "the worker never became ready")
            client.create("tic-tac-toe")
        finally:
            client.close()
