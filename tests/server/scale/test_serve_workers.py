"""``tabletop serve --workers N``: uvicorn's worker processes on one PostgreSQL, refused on SQLite."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import psycopg
from tabletop_fixtures.live_server import free_port
from tabletop_fixtures.postgres import PostgresServer
from tabletop_server.events import LISTENER_APPLICATION_NAME

TABLETOP = Path(sys.executable).parent / "tabletop"


def _listeners(server: PostgresServer, database: str) -> int:
    """How many sessions on ``database`` are a worker's listening connection."""
    with psycopg.connect(server.url(database).replace("+psycopg", "")) as connection:
        row = connection.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            (database, LISTENER_APPLICATION_NAME),
        ).fetchone()
    return int(row[0]) if row else 0


def _ready(client: httpx.Client) -> bool:
    """Whether the server accepts connections and says it is ready."""
    try:
        return client.get("/readyz").status_code == 200
    except httpx.TransportError:
        return False


def test_several_workers_need_postgresql(tmp_path: Path) -> None:
    done = subprocess.run(
        [str(TABLETOP), "serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "--workers above 1 needs PostgreSQL" in done.stderr


def test_two_workers_serve_one_port_and_each_listens_for_changes(
    postgres_server: PostgresServer, postgres_url: str, tmp_path: Path
) -> None:
    port = free_port()
    command = [str(TABLETOP), "serve", "--db", postgres_url, "--port", str(port), "--workers", "2"]
    command += ["--ui-dir", str(tmp_path / "no-ui")]
    log = (tmp_path / "serve.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    database = postgres_url.rsplit("/", 1)[1]
    try:
        # Each worker's listener is a session named LISTENER_APPLICATION_NAME. (Counting sessions
        # whose last query was ``LISTEN`` flaked: each listener runs ``SELECT 1`` after a second
        # idle, so two workers that started more than a second apart were never seen together.)
        deadline = time.monotonic() + 120
        listeners = 0
        while listeners < 2:
            assert process.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()[-2000:]
            time.sleep(0.2)
            listeners = _listeners(postgres_server, database)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            # A worker listens for changes during its start-up, before it accepts connections.
            while not _ready(client):
                assert process.poll() is None, (tmp_path / "serve.log").read_text()[-2000:]
                assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()[-2000:]
                time.sleep(0.2)
            body = {"game": "tic-tac-toe", "seats": [{"name": "A"}, {"name": "B"}]}
            created = client.post("/api/matches", json=body)
            assert created.status_code == 201
            assert client.get(f"/api/matches/{created.json()['id']}").json()["index"] == 0
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        log.close()
