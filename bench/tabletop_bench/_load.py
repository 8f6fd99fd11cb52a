"""A lean closed-loop HTTP load generator (asyncio, raw HTTP/1.1 keep-alive) and server processes.

The generator is deliberately small (no HTTP library on the hot path) so that it takes as little
of the machine's CPU as it can: the server workers run on the same 2 cores.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import orjson

__all__ = ["Connection", "LoadStats", "ServerProcess", "cpu_seconds", "free_port", "play_matches"]

TABLETOP = Path(sys.executable).parent / "tabletop"
Json = dict[str, object]


def free_port() -> int:
    """A loopback TCP port free right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


_NO_RATE_LIMITS = {
    f"TABLETOP_{name}": "0"
    for name in (
        "RATE_LIMIT_CREATE",
        "RATE_LIMIT_CLAIM",
        "RATE_LIMIT_STREAM_TOKEN",
        "RATE_LIMIT_STREAM",
        "MAX_STREAMS_PER_CLIENT",
    )
}
"""The load comes from one client address: lift the per-client limits."""


class ServerProcess:
    """``tabletop serve`` in a subprocess on a free loopback port (no UI, no migration)."""

    def __init__(self, database: str, folder: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "TABLETOP_MIGRATE": "false",
            "TABLETOP_KEEPALIVE_SECONDS": "5",
            **_NO_RATE_LIMITS,
        }
        command = [str(TABLETOP), "serve", "--db", database, "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--ui-dir", str(folder / "no-ui")]
        self._log = (folder / f"server-{self.port}.log").open("ab")
        self.process = subprocess.Popen(command, env=env, stdout=self._log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 60) -> None:
        """Block until the server accepts connections."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                msg = f"the server exited with {self.process.returncode}"
                raise RuntimeError(msg)
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        msg = "the server did not start"
        raise RuntimeError(msg)

    def stop(self) -> None:
        """Stop the server."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


class Connection:
    """One keep-alive HTTP/1.1 connection."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str) -> None:
        self.reader = reader
        self.writer = writer
        self.host = host

    @classmethod
    async def open(cls, url: str) -> Connection:
        """Connect to ``http://host:port``."""
        host_port = url.removeprefix("http://")
        host, port = host_port.split(":")
        reader, writer = await asyncio.open_connection(host, int(port))
        return cls(reader, writer, host_port)

    async def request(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, Json]:
        """Send one request and read the JSON answer."""
        payload = b"" if body is None else orjson.dumps(body)
        head = f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Length: {len(payload)}\r\n"
        if body is not None:
            head += "Content-Type: application/json\r\n"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        self.writer.write(head.encode() + b"\r\n" + payload)
        headers = await self.reader.readuntil(b"\r\n\r\n")
        status = int(headers[9:12])
        length = 0
        for line in headers.split(b"\r\n"):
            if line[:15].lower() == b"content-length:":
                length = int(line[15:])
        data = await self.reader.readexactly(length)
        return status, orjson.loads(data) if data else {}

    def close(self) -> None:
        """Close the connection."""
        self.writer.close()


@dataclass
class LoadStats:
    """What a closed-loop run measured.

    Attributes:
        latencies: Seconds of every accepted action's round trip.
        seconds: Wall seconds of the timed window.
        other_requests: Requests that were not actions (views, creating matches, joining).
        refused: Actions the server refused (should stay 0).
    """

    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    other_requests: int = 0
    refused: int = 0

    def percentile(self, fraction: float) -> float:
        """The latency at ``fraction`` (0.5: median), in seconds."""
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")

    @property
    def per_second(self) -> float:
        """Accepted actions per wall second."""
        return len(self.latencies) / self.seconds if self.seconds else 0.0


async def _new_match(
    connection: Connection, game: str, rng: random.Random, stats: LoadStats, clock: Json | None = None
) -> tuple[str, dict[str, str]]:
    body: dict[str, object] = {
        "game": game,
        "seats": [{"name": "A"}, {"name": "B"}],
        "seed": rng.getrandbits(31),
    }
    if clock is not None:
        body["clock"] = clock
    status, info = await connection.request("POST", "/api/matches", body)
    if status != 201:
        msg = f"create failed: {status} {info}"
        raise RuntimeError(msg)
    match_id = str(info["id"])
    tokens: dict[str, str] = {}
    for player in ("p1", "p2"):
        status, seat = await connection.request("POST", f"/api/matches/{match_id}/seats/{player}")
        tokens[player] = str(seat["token"])
    stats.other_requests += 3
    return match_id, tokens


async def _client(
    urls: list[str],
    game: str,
    n: int,
    window: list[float],
    stats: LoadStats,
    started: asyncio.Event,
    *,
    per_request: bool,
    clock: Json | None = None,
) -> None:
    rng = random.Random(n)
    connections = [await Connection.open(url) for url in urls]
    if not per_request:  # behind a load balancer a keep-alive client stays on one worker
        mine = n % len(connections)
        for other in connections[:mine] + connections[mine + 1 :]:
            other.close()
        connections = [connections[mine]]
    turn = 0
    try:
        await started.wait()
        while time.perf_counter() < window[0]:
            connection = connections[turn % len(connections)]
            match_id, tokens = await _new_match(connection, game, rng, stats, clock)
            player = "p1"
            status, view = await connection.request(
                "GET", f"/api/matches/{match_id}/view", token=tokens[player]
            )
            stats.other_requests += 1
            if game == "tic-tac-toe":  # no hidden information: the moves can be planned up front
                await _planned(connections, match_id, tokens, view, rng, window, stats)
                continue
            while time.perf_counter() < window[0] and view.get("status") == "in_progress":
                legal = view.get("legal_actions") or []
                if not legal:
                    player = "p2" if player == "p1" else "p1"
                    status, view = await connection.request(
                        "GET", f"/api/matches/{match_id}/view", token=tokens[player]
                    )
                    stats.other_requests += 1
                    continue
                assert isinstance(legal, list)
                body = dict(rng.choice(legal))
                connection = connections[turn % len(connections)]
                turn += 1
                sent = time.perf_counter()
                status, view = await connection.request(
                    "POST", f"/api/matches/{match_id}/actions/{body['type']}", body, tokens[player]
                )
                if status != 200:
                    stats.refused += 1
                    break
                stats.latencies.append(time.perf_counter() - sent)
    finally:
        for connection in connections:
            connection.close()


async def _planned(
    connections: list[Connection],
    match_id: str,
    tokens: dict[str, str],
    view: Json,
    rng: random.Random,
    window: list[float],
    stats: LoadStats,
) -> None:
    """Tic-tac-toe: the empty board's squares in a random order, the seats taking turns, so every
    request is an action (no view between moves)."""
    legal = view.get("legal_actions") or []
    assert isinstance(legal, list)
    plan: list[dict[str, object]] = list(legal)
    rng.shuffle(plan)
    for k, planned in enumerate(plan):
        if time.perf_counter() >= window[0]:
            return
        player = ("p1", "p2")[k % 2]
        body = {**planned, "player_id": player}
        connection = connections[k % len(connections)]
        sent = time.perf_counter()
        status, answer = await connection.request(
            "POST", f"/api/matches/{match_id}/actions/{body['type']}", body, tokens[player]
        )
        if status != 200:
            stats.refused += 1
            return
        stats.latencies.append(time.perf_counter() - sent)
        if answer.get("status") != "in_progress":
            return


async def _run(
    urls: list[str], game: str, clients: int, seconds: float, per_request: bool, clock: Json | None = None
) -> LoadStats:
    stats = LoadStats()
    started = asyncio.Event()
    window = [float("inf")]  # the deadline, set when every client is connected
    tasks = [
        asyncio.ensure_future(
            _client(urls, game, n, window, stats, started, per_request=per_request, clock=clock)
        )
        for n in range(clients)
    ]
    await asyncio.sleep(0.3)
    begin = time.perf_counter()
    window[0] = begin + seconds
    started.set()
    await asyncio.gather(*tasks)
    stats.seconds = time.perf_counter() - begin
    return stats


def play_matches(
    urls: list[str],
    game: str,
    clients: int,
    seconds: float,
    *,
    per_request: bool = False,
    clock: Json | None = None,
) -> LoadStats:
    """Closed loop: ``clients`` clients each play matches of ``game`` back to back for ``seconds``;
    measures the action round trips.

    Client ``n`` keeps one connection to ``urls[n % len(urls)]``, as keep-alive clients do behind a
    load balancer; with ``per_request`` every client sends each request to the next URL in turn
    (the worst case for a worker's match cache: every request finds its copy one move behind).
    With ``clock``, every match is created with that ``CreateMatch.clock``.
    """
    return asyncio.run(_run(urls, game, clients, seconds, per_request, clock))
