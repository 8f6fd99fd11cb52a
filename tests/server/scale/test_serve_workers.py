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

TABLETOP = Path(sys.executable).parent / "tabletop"


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
        deadline = time.monotonic() + 120
        listeners: set[int] = set()
        while len(listeners) < 2:  # workers start seconds apart under load: collect them
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()[-2000:]
            time.sleep(0.2)
            with psycopg.connect(postgres_server.url(database).replace("+psycopg", "")) as connection:
                rows = connection.execute(
                    # a listener's last statement is its LISTEN, then its once-a-second liveness
                    # probe (it has no application name; the pools' connections are "tabletop")
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s AND (query LIKE 'LISTEN %%'"
                    " OR (query = 'SELECT 1' AND application_name = ''))",
                    (database,),
                ).fetchall()
            listeners |= {int(row[0]) for row in rows}
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as client:
            body = {"game": "tic-tac-toe", "seats": [{"name": "A"}, {"name": "B"}]}
            created = client.post("/api/matches", json=body)
            assert created.status_code == 201
            assert client.get(f"/api/matches/{created.json()['id']}").json()["index"] == 0
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        log.close()
