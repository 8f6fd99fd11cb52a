"""The server under load: HTTP action round trips and throughput, SSE bytes, the generator's CPU.

Deployments: SQLite with one worker, PostgreSQL with one worker, PostgreSQL with two workers
(``tabletop serve`` subprocesses on loopback ports; PostgreSQL started with the test fixture's
helpers). Each is measured with 1 client and with 50 concurrent matches (closed loop, no think
time), beside the in-process ``engine.run`` of the same game as the baseline.
"""

from __future__ import annotations

import gc
import os
import random
import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
from tabletop import UNKEYED, AnyState, GameConfig, GameEngine
from tabletop.bots import RandomBot
from tabletop.games import available, load
from tabletop.testing import make_game
from tabletop_fixtures.postgres import PostgresServer, find_binaries, start_postgres
from tabletop_server.events import DeltaError, apply_delta
from tabletop_server.storage import upgrade

from tabletop_bench._cases import Row
from tabletop_bench._load import LoadStats, ServerProcess, cpu_seconds, play_matches
from tabletop_bench._timing import Budget

__all__ = ["HTTP_CASES"]

GAMES = ("tic-tac-toe", "go-fish")


@dataclass(frozen=True, slots=True)
class _Deployment:
    label: str
    database: str
    workers: int


def engine_us(game: str, actions: int = 2000) -> float:
    """In-process ``engine.run`` µs per action over random playouts of ``game`` (the baseline)."""
    definition = load(game)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    spent, done, seed = 0.0, 0, 0
    while done < actions:
        game_ = make_game(definition, players=2, seed=seed)
        bot = RandomBot(engine, seed)
        state = engine.start(game_, prng_key=UNKEYED).state
        while state.result is None and done < actions:
            action = next(
                a for p in state.active_player_ids if (a := bot.choose(state, p, game_)) is not None
            )
            started = time.perf_counter()
            state = engine.run(action, state, game_).state
            spent += time.perf_counter() - started
            done += 1
        seed += 1
    return spent / done * 1e6


@contextmanager
def _servers(deployment: _Deployment, folder: Path) -> Iterator[list[ServerProcess]]:
    upgrade(deployment.database)
    servers = [ServerProcess(deployment.database, folder) for _ in range(deployment.workers)]
    try:
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()


def _load_rows(
    deployment: _Deployment,
    servers: list[ServerProcess],
    game: str,
    clients: int,
    seconds: float,
    base: float,
    *,
    per_request: bool = False,
    clock: dict[str, object] | None = None,
) -> list[Row]:
    urls = [server.url for server in servers]
    play_matches(urls, game, min(clients, 2), 0.3, clock=clock)  # warm up (imports, caches, connections)
    gc.collect()
    cpu_before = [cpu_seconds(server.process.pid) for server in servers]
    own_before = os.times()
    stats: LoadStats = play_matches(urls, game, clients, seconds, per_request=per_request, clock=clock)
    own_after = os.times()
    server_cpu = sum(cpu_seconds(s.process.pid) - b for s, b in zip(servers, cpu_before, strict=True))
    own_cpu = (own_after.user - own_before.user) + (own_after.system - own_before.system)
    subject = f"{game} {deployment.label}" + (", each request to the next worker" if per_request else "")
    subject += ", with a chess clock" if clock is not None else ""
    label = "in-process engine.run of the same game"
    where = f"{clients} client{'s' if clients > 1 else ''}"
    rate = stats.per_second
    note = (
        f"{rate:,.0f} accepted actions/s, {len(stats.latencies)} actions in {stats.seconds:.1f} s, "
        f"{stats.other_requests} other requests, {stats.refused} refused"
    )
    share = own_cpu / (own_cpu + server_cpu) if own_cpu + server_cpu else 0.0
    return [
        Row(f"http action p50 µs ({where})", subject, stats.percentile(0.5) * 1e6, base, label),
        Row(f"http action p99 µs ({where})", subject, stats.percentile(0.99) * 1e6, base, label),
        Row(
            f"http µs per accepted action ({where})", subject, 1e6 / rate if rate else None, base, label, note
        ),
        Row(
            f"load generator CPU % ({where})",
            subject,
            share * 100,
            note=f"a percentage, not µs: generator {own_cpu:.1f} s CPU, server workers {server_cpu:.1f} s "
            "(PostgreSQL's own processes not counted)",
        ),
    ]


def _sse_bytes(server: ServerProcess, game: str, actions: int) -> Row:
    """Bytes each seat's stream receives per action (update frames; the snapshot excluded).

    Updates carry deltas (``packages/server/API.md``, "Deltas"): each seat's reader rebuilds its
    documents from them, and the row is only reported if the last one equals the seat's
    ``GET .../view`` at the end (so the bytes counted are enough to follow the match).
    """
    client = httpx.Client(base_url=server.url, timeout=10)
    try:
        info = client.post(
            "/api/matches", json={"game": game, "seats": [{"name": "A"}, {"name": "B"}], "seed": 5}
        ).json()
        match_id = info["id"]
        tokens = {p: client.post(f"/api/matches/{match_id}/seats/{p}").json()["token"] for p in ("p1", "p2")}
        received = dict.fromkeys(tokens, 0)
        rebuilt: dict[str, Any] = dict.fromkeys(tokens)
        ready = threading.Barrier(3)
        done = threading.Event()

        def follow(player: str) -> None:
            try:
                _follow(player)
            except (httpx.HTTPError, DeltaError, KeyError):  # the server stopped; a delta did not apply
                return

        def _follow(player: str) -> None:
            stream_token = client.post(
                f"/api/matches/{match_id}/stream-tokens",
                headers={"Authorization": f"Bearer {tokens[player]}"},
            ).json()["stream_token"]
            documents: dict[int, Any] = {}
            with (
                httpx.Client(timeout=httpx.Timeout(10, read=30)) as reader,
                reader.stream(
                    "GET",
                    f"{server.url}/api/matches/{match_id}/events",
                    params={"stream_token": stream_token},
                ) as response,
            ):
                lines = response.iter_lines()
                event_id = None
                for line in lines:  # the snapshot, up to its blank line
                    if line.startswith("id: "):
                        event_id = int(line[4:])
                    elif line.startswith("data: ") and event_id is not None:
                        documents[event_id] = {**orjson.loads(line[6:]), "actions": []}
                    elif not line:
                        break
                ready.wait(timeout=30)
                for line in lines:
                    if done.is_set():
                        return
                    if not line.startswith(":"):
                        received[player] += len(line.encode()) + 1
                    if line.startswith("id: "):
                        event_id = int(line[4:])
                    elif line.startswith("data: ") and event_id is not None:
                        data = orjson.loads(line[6:])
                        base = None if data["base"] is None else documents[data["base"]]
                        documents[event_id] = rebuilt[player] = apply_delta(base, data["patch"])

        threads = [threading.Thread(target=follow, args=(p,), daemon=True) for p in tokens]
        for thread in threads:
            thread.start()
        ready.wait(timeout=30)
        rng = random.Random(1)
        played = 0
        while played < actions:
            moved = False
            for token in tokens.values():
                headers = {"Authorization": f"Bearer {token}"}
                view = client.get(f"/api/matches/{match_id}/view", headers=headers).json()
                if view["status"] != "in_progress":
                    break
                if view["legal_actions"]:
                    body = rng.choice(view["legal_actions"])
                    client.post(f"/api/matches/{match_id}/actions/{body['type']}", json=body, headers=headers)
                    played += 1
                    moved = True
            if not moved:
                break
        time.sleep(0.5)
        done.set()
        head = client.get(f"/api/matches/{match_id}").json()["index"]
        views = {
            p: client.get(f"/api/matches/{match_id}/view", headers={"Authorization": f"Bearer {t}"}).json()
            for p, t in tokens.items()
        }
    finally:
        client.close()
    followed = all(
        isinstance(rebuilt[p], dict) and {**rebuilt[p], "actions": None} == {**views[p], "actions": None}
        for p in tokens
    )
    per_seat = sum(received.values()) / len(received) / max(1, played)
    return Row(
        "sse bytes per seat per action",
        game,
        per_seat if followed else None,
        note=f"bytes, not µs: {played} actions ({head} log entries), a seat's update frames (deltas)"
        if followed
        else "n/a: the deltas did not rebuild the seats' views",
    )


def _scale_out(rows: list[Row]) -> list[Row]:
    """Two PostgreSQL workers against one: µs per accepted action at 50 clients, as a ratio."""
    case = "http µs per accepted action (50 clients)"
    found = {row.subject: row.value for row in rows if row.case == case}
    out: list[Row] = []
    for game in GAMES:
        one, two = found.get(f"{game} postgresql×1"), found.get(f"{game} postgresql×2")
        if one and two:
            note = f"{1e6 / two:,.0f} vs {1e6 / one:,.0f} accepted actions/s: ×{one / two:.2f} (target ≥ 1.6)"
            out.append(
                Row("postgresql×2 vs ×1: µs per accepted action", game, two, one, "postgresql×1", note)
            )
    return out


CLOCK: dict[str, object] = {
    "control": {"type": "chess", "main_seconds": 3600, "increment_seconds": 5},
    "policy": {"on_timeout": "bot"},
}
"""The clock of the clocked rows: one that never runs out during a run (its cost, not its expiry)."""


def _clock_overhead(rows: list[Row]) -> list[Row]:
    """µs per accepted action with a chess clock against without one (target: within 10%)."""
    out: list[Row] = []
    for case in ("http µs per accepted action (1 client)", "http µs per accepted action (50 clients)"):
        found = {row.subject: row.value for row in rows if row.case == case}
        for subject, value in found.items():
            if not subject.endswith(", with a chess clock"):
                continue
            plain = found.get(subject.removesuffix(", with a chess clock"))
            if value and plain:
                note = f"×{value / plain:.2f} of the same deployment without a clock (target ≤ 1.10)"
                out.append(Row(f"clock overhead: {case}", subject, value, plain, "no clock", note))
    return out


def http(budget: Budget) -> list[Row]:
    """The server's HTTP round trips and throughput on each deployment, and SSE bytes per seat."""
    smoke = budget.name == "smoke"
    games = [game for game in GAMES if game in available()]
    if not games:
        return [Row("http action p50 µs", "server", None, note="n/a: tic-tac-toe and go-fish not installed")]
    base = {game: engine_us(game, 200 if smoke else 2000) for game in games}
    folder = Path(tempfile.mkdtemp(prefix="tabletop-bench-"))
    rows: list[Row] = []
    postgres: PostgresServer | None = None
    try:
        deployments = [_Deployment("sqlite×1", f"sqlite:///{folder / 'bench.sqlite3'}", 1)]
        binaries = None if smoke else find_binaries()
        if binaries is not None:
            postgres = start_postgres(binaries)
            deployments.append(_Deployment("postgresql×1", postgres.create_database(), 1))
            deployments.append(_Deployment("postgresql×2", postgres.create_database(), 2))
        seconds = 0.5 if smoke else 4.0
        for deployment in deployments:
            with _servers(deployment, folder) as servers:
                for game in games if not smoke else games[:1]:
                    for clients in (1,) if smoke else (1, 50):
                        rows += _load_rows(deployment, servers, game, clients, seconds, base[game])
                if deployment.workers > 1 and not smoke:  # the match cache's worst case, for honesty
                    rows += _load_rows(
                        deployment, servers, games[0], 50, seconds, base[games[0]], per_request=True
                    )
                if deployment.workers == 1:  # the clock's overhead on the action path
                    for clients in (1,) if smoke else (1, 50):
                        rows += _load_rows(
                            deployment, servers, games[0], clients, seconds, base[games[0]], clock=CLOCK
                        )
                if deployment.label == "sqlite×1":
                    rows += [_sse_bytes(servers[0], game, 12 if smoke else 40) for game in games]
        rows += _scale_out(rows) + _clock_overhead(rows)
        if binaries is None:
            why = "skipped in smoke mode" if smoke else "n/a: PostgreSQL binaries not found"
            rows.append(Row("http action p50 µs (PostgreSQL)", "postgresql×1, ×2", None, note=why))
    finally:
        if postgres is not None:
            postgres.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return rows


HTTP_CASES = {"http": http}
"""The server cases, after the engine's."""
