"""Server CPU per request, in process: plain tic-tac-toe matches against clocked ones.

The HTTP rows of ``make bench`` time a real server from a load generator on the same cores, and
on a shared machine they vary by tens of percent between runs. This drives the app's ASGI entry
on one event loop in this thread (SQLite, the server's own group commits), plays whole matches
(create, both joins, a view, the moves) alternating a plain match and a clocked one, and adds
up this thread's CPU time per request kind: steadier, and it says where a difference goes.
Not part of the suite.

Usage: ``python bench/request_cpu.py [-n MATCHES]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import orjson
from starlette.types import ASGIApp, Message

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "support"))  # (imported by the bench)

from tabletop_bench._http import CLOCK
from tabletop_bench._load import _NO_RATE_LIMITS
from tabletop_server._limits import replay_body

Json = dict[str, object]
KINDS = ("create", "join", "view", "action")


class _Driver:
    """Calls the app's ASGI entry directly and keeps this thread's CPU time per request kind."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.spent: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
        self.mode = "warm-up"

    async def call(self, kind: str, method: str, path: str, body: Json | None, token: str | None) -> Json:
        raw = b"" if body is None else orjson.dumps(body)
        headers = [(b"host", b"bench"), (b"content-type", b"application/json")]
        headers.append((b"content-length", str(len(raw)).encode()))
        if token is not None:
            headers.append((b"authorization", f"Bearer {token}".encode()))
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": headers,
            "client": ("127.0.0.1", 1),
            "server": ("127.0.0.1", 80),
            "state": {},
        }
        chunks: list[bytes] = []
        status = [0]

        async def never() -> Message:  # (a response never waits for more body)
            await asyncio.sleep(3600)
            return {"type": "http.disconnect"}

        async def send(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = int(message["status"])
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        started = time.thread_time()
        await self.app(scope, replay_body(raw, never), send)
        total = self.spent[self.mode, kind]
        total[0] += time.thread_time() - started
        total[1] += 1
        answer: Json = orjson.loads(b"".join(chunks))
        if status[0] >= 400:
            msg = f"{method} {path}: {status[0]} {answer}"
            raise RuntimeError(msg)
        return answer

    async def match(self, seed: int, clock: Json | None) -> None:
        body: Json = {"game": "tic-tac-toe", "seats": [{"name": "A"}, {"name": "B"}], "seed": seed}
        if clock is not None:
            body["clock"] = clock
        match_id = str((await self.call("create", "POST", "/api/matches", body, None))["id"])
        tokens = {}
        for seat in ("p1", "p2"):
            claimed = await self.call("join", "POST", f"/api/matches/{match_id}/seats/{seat}", None, None)
            tokens[seat] = str(claimed["token"])
        view = await self.call("view", "GET", f"/api/matches/{match_id}/view", None, tokens["p1"])
        moves = list(view["legal_actions"])  # type: ignore[call-overload]
        random.Random(seed).shuffle(moves)
        for number, move in enumerate(moves):
            seat = ("p1", "p2")[number % 2]
            path = f"/api/matches/{match_id}/actions/{move['type']}"
            answer = await self.call("action", "POST", path, {**move, "player_id": seat}, tokens[seat])
            if answer.get("status") != "in_progress":
                break


async def _run(matches: int) -> None:
    from tabletop_server import create_app

    app = create_app()
    driver = _Driver(app)
    async with app.router.lifespan_context(app):
        for seed in range(20):
            await driver.match(seed, None)
            await driver.match(seed, CLOCK)
        for seed in range(1000, 1000 + matches):
            for mode, clock in (("plain", None), ("clocked", CLOCK)):
                driver.mode = mode
                await driver.match(seed, clock)
    print(f"server CPU per request, µs (tic-tac-toe, {matches} matches of each, alternating)")
    print(f"{'request':8} {'plain':>8} {'clocked':>8} {'ratio':>6} {'per match':>10}")
    totals = {"plain": 0.0, "clocked": 0.0}
    for kind in KINDS:
        plain, clocked = driver.spent["plain", kind], driver.spent["clocked", kind]
        totals["plain"] += plain[0]
        totals["clocked"] += clocked[0]
        each_plain, each_clocked = plain[0] / plain[1] * 1e6, clocked[0] / clocked[1] * 1e6
        print(
            f"{kind:8} {each_plain:8.0f} {each_clocked:8.0f} {each_clocked / each_plain:6.2f} "
            f"{clocked[1] / matches:9.1f}x"
        )
    plain_match, clocked_match = totals["plain"] / matches * 1e6, totals["clocked"] / matches * 1e6
    print(f"{'match':8} {plain_match:8.0f} {clocked_match:8.0f} {clocked_match / plain_match:6.2f}")


def main(argv: list[str] | None = None) -> int:
    """Play ``-n`` plain and ``-n`` clocked matches on a fresh SQLite database; print the table."""
    parser = argparse.ArgumentParser(description="server CPU per request, in process")
    parser.add_argument("-n", type=int, default=300, help="matches of each kind (default 300)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        os.environ["TABLETOP_DB"] = f"sqlite:///{folder}/bench.sqlite3"
        os.environ.update(_NO_RATE_LIMITS)
        asyncio.run(_run(args.n))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
