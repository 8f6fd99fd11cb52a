"""The webhook outbox's cost on the action path: HTTP actions with and without webhooks.

One SQLite server (``tabletop serve``) and a loopback receiver that answers ``204`` at once.
Tic-tac-toe matches are played one after the other by one client, alternating matches whose two
seats registered a webhook (every action then queues a ``your-turn`` or ``match-finished``
delivery in its transaction, and the worker's courier sends it in the background) with matches
without any; the p50 of the action round trips of each kind is compared. Target: within 10%.
"""

from __future__ import annotations

import random
import shutil
import statistics
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
from tabletop_server.storage import upgrade

from tabletop_bench._cases import Row
from tabletop_bench._load import ServerProcess
from tabletop_bench._timing import Budget

__all__ = ["OUTBOX_CASES"]


class _Ok(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def _match(client: httpx.Client, hook: str | None, rng: random.Random, samples: list[float]) -> None:
    info = client.post("/api/matches", json={"game": "tic-tac-toe", "seats": [{}, {}], "seed": 1}).json()
    match_id = info["id"]
    tokens = {p: client.post(f"/api/matches/{match_id}/seats/{p}").json()["token"] for p in ("p1", "p2")}
    if hook is not None:
        for token in tokens.values():
            client.post(
                f"/api/matches/{match_id}/webhook",
                json={"url": hook},
                headers={"Authorization": f"Bearer {token}"},
            ).raise_for_status()
    legal = client.get(f"/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {tokens['p1']}"})
    plan = list(legal.json()["legal_actions"])
    rng.shuffle(plan)
    for k, planned in enumerate(plan):
        player = ("p1", "p2")[k % 2]
        body = {**planned, "player_id": player}
        sent = time.perf_counter()
        answer = client.post(
            f"/api/matches/{match_id}/actions/{body['type']}",
            json=body,
            headers={"Authorization": f"Bearer {tokens[player]}"},
        )
        samples.append(time.perf_counter() - sent)
        if answer.status_code != 200 or answer.json()["status"] != "in_progress":
            return


def outbox(budget: Budget) -> list[Row]:
    """p50 of an HTTP action with webhooks registered on both seats against without (SQLite, 1 client)."""
    smoke = budget.name == "smoke"
    folder = Path(tempfile.mkdtemp(prefix="tabletop-outbox-"))
    database = f"sqlite:///{folder / 'bench.sqlite3'}"
    receiver = ThreadingHTTPServer(("127.0.0.1", 0), _Ok)
    receiver.daemon_threads = True
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    hook = f"http://127.0.0.1:{receiver.server_address[1]}/hook"
    upgrade(database)
    server = ServerProcess(database, folder)
    plain: list[float] = []
    hooked: list[float] = []
    try:
        server.wait_ready()
        rng = random.Random(7)
        with httpx.Client(base_url=server.url, timeout=30) as client:
            for _ in range(3):  # warm up
                _match(client, hook, rng, [])
            for _ in range(10 if smoke else 150):
                _match(client, None, rng, plain)
                _match(client, hook, rng, hooked)
    finally:
        server.stop()
        receiver.shutdown()
        receiver.server_close()
        shutil.rmtree(folder, ignore_errors=True)
    base = statistics.median(plain) * 1e6
    value = statistics.median(hooked) * 1e6
    note = f"{len(hooked)} vs {len(plain)} actions; target: within 10% (ratio ≤ 1.10)"
    return [
        Row(
            "http action p50 µs with webhooks (sqlite×1, 1 client)",
            "tic-tac-toe",
            value,
            base,
            "no webhook",
            note,
        )
    ]


OUTBOX_CASES = {"outbox": outbox}
"""The outbox's overhead on the action path."""
