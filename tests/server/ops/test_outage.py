"""A PostgreSQL outage never stops ``tabletop serve --workers 2``: workers start without the
database (503 until it is back, then they migrate it and serve), and a worker killed with
``kill -9`` during an outage is replaced instead of taking the server down."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tabletop_fixtures.live_server import NO_RATE_LIMITS_ENV, free_port
from tabletop_fixtures.postgres import PostgresServer, _run, find_binaries, start_postgres

TABLETOP = Path(sys.executable).parent / "tabletop"
BODY = {"game": "tic-tac-toe", "seats": [{"name": "A"}, {"name": "B"}]}


@pytest.fixture
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test's own (the test stops and starts it)."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip("initdb/pg_ctl not found")
    server = start_postgres(binaries)
    try:
        yield server
    finally:
        server.stop()


def _halt(server: PostgresServer) -> None:
    _run(server.binaries / "pg_ctl", "-D", str(server.folder / "data"), "-m", "fast", "-w", "stop")


def _resume(server: PostgresServer) -> None:
    options = f"-k {server.folder} -p {server.port} -c listen_addresses=127.0.0.1"
    options += " -c fsync=off -c max_connections=300"
    data, log = str(server.folder / "data"), str(server.folder / "log")
    _run(server.binaries / "pg_ctl", "-D", data, "-o", options, "-l", log, "-w", "start")


def _workers(parent: int) -> set[int]:
    """The uvicorn worker processes of ``parent`` (spawned: ``spawn_main`` in their command)."""
    children = Path(f"/proc/{parent}/task/{parent}/children").read_text().split()
    found = set()
    for child in children:
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.add(int(child))
    return found


def _until(condition: Callable[[], bool], what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def _status(client: httpx.Client, method: str, path: str, **kwargs: object) -> tuple[int, str | None]:
    try:
        response = client.request(method, path, **kwargs)  # type: ignore[arg-type]
    except httpx.TransportError:
        return 0, None
    code = (
        response.json().get("code")
        if response.headers.get("content-type", "").startswith("application/json")
        else None
    )
    return response.status_code, code


def test_workers_start_without_postgresql_and_survive_kill_9_during_an_outage(
    postgres: PostgresServer, tmp_path: Path
) -> None:
    url = postgres.create_database()  # empty: never migrated
    _halt(postgres)
    port = free_port()
    env = os.environ | NO_RATE_LIMITS_ENV | {"TABLETOP_DB_POOL_TIMEOUT": "3"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    command = [str(TABLETOP), "serve", "--db", url, "--port", str(port), "--workers", "2"]
    command += ["--ui-dir", str(tmp_path / "no-ui")]
    log = tmp_path / "serve.log"
    with log.open("wb") as output, httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=20) as client:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
        try:

            def serving_503() -> bool:
                assert process.poll() is None, log.read_text()[-3000:]
                return _status(client, "POST", "/api/matches", json=BODY) == (503, "storage-unavailable")

            # 1. started with the database down: alive, not ready, 503 (and never exits)
            _until(serving_503, "the server did not start without its database")
            _until(lambda: len(_workers(process.pid)) == 2, "two workers did not start")
            assert client.get("/livez").status_code == 200
            assert _status(client, "GET", "/readyz") == (503, "not-ready")
            # 2. the database comes back: the workers migrate it and serve
            _resume(postgres)
            _until(lambda: _status(client, "POST", "/api/matches", json=BODY)[0] == 201, "no recovery")
            _until(lambda: client.get("/readyz").status_code == 200, "not ready after recovery")
            match = client.post("/api/matches", json=BODY).json()
            # 3. outage again, and a worker is killed: its replacement starts without the database
            _halt(postgres)
            _until(
                lambda: _status(client, "GET", f"/api/matches/{match['id']}")[0] == 503,
                "no 503 in the outage",
            )
            before = _workers(process.pid)
            victim = min(before)
            os.kill(victim, signal.SIGKILL)
            _until(
                lambda: len(_workers(process.pid) - before) == 1 and victim not in _workers(process.pid),
                "the killed worker was not replaced",
            )
            for _ in range(10):  # both workers up, both answering 503, the server alive
                assert _status(client, "POST", "/api/matches", json=BODY) == (503, "storage-unavailable")
            assert process.poll() is None
            # 4. the database is back: every worker serves, nothing acknowledged is lost
            _resume(postgres)
            _until(lambda: _status(client, "GET", f"/api/matches/{match['id']}")[0] == 200, "no recovery")
            statuses = [_status(client, "POST", "/api/matches", json=BODY)[0] for _ in range(20)]
            assert statuses == [201] * 20, statuses
            assert client.get(f"/api/matches/{match['id']}").json()["id"] == match["id"]
            _until(lambda: client.get("/readyz").status_code == 200, "not ready after the second recovery")
            # the metrics of every worker, in one scrape (multiprocess mode)
            families = {f.name: f for f in text_string_to_metric_families(client.get("/metrics").text)}
            errors = {
                s.labels["code"]: s.value
                for s in families["tabletop_storage_errors"].samples
                if s.name.endswith("_total")
            }
            assert errors.get("storage-unavailable", 0) > 0
            created = [
                s.value
                for s in families["tabletop_http_requests"].samples
                if s.name.endswith("_total")
                and s.labels["route"] == "/api/matches"
                and s.labels["status"] == "201"
            ]
            assert sum(created) >= 22
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)
