"""Fairness under load: a human playing a random bot while search bots run, and a crowded stream.

``bots``: two go-fish matches of six MCTS bots at 5,000 iterations run on a SQLite server while a
human plays tic-tac-toe against a random bot: p50/p99 of the human's requests and of the random
bot's reply (from the accepted move to the bot's move being visible). ``fanout``: 200 event
streams on one go-fish match (50 never read) while its two seats play: the median of
``GET /api/games`` and of a view.
"""

from __future__ import annotations

import os
import shutil
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

import httpx
from tabletop_server.storage import upgrade

from tabletop_bench._cases import Row
from tabletop_bench._load import ServerProcess
from tabletop_bench._timing import Budget

__all__ = ["FAIRNESS_CASES"]

HEAVY = [{"name": f"Bot {n}", "bot": {"kind": "mcts", "iterations": 5000}} for n in range(6)]


@contextmanager
def _server(**env: str) -> Iterator[ServerProcess]:
    folder = Path(tempfile.mkdtemp(prefix="tabletop-fair-"))
    database = f"sqlite:///{folder / 'tabletop.sqlite3'}"
    upgrade(database)
    saved = {name: os.environ.get(name) for name in env}
    os.environ.update(env)
    try:
        server = ServerProcess(database, folder)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def _timed(samples: list[float], call: Callable[[], httpx.Response]) -> httpx.Response:
    start = time.perf_counter()
    response = call()
    samples.append(time.perf_counter() - start)
    return response


def bots(budget: Budget) -> list[Row]:
    """The human-vs-random latencies while two all-MCTS go-fish matches run."""
    moves = 12 if budget.name == "smoke" else 40
    requests: list[float] = []
    replies: list[float] = []
    unanswered = 0
    with _server() as server, httpx.Client(base_url=server.url, timeout=120) as http:
        for seed in (1, 2):
            http.post(
                "/api/matches", json={"game": "go-fish", "seats": HEAVY, "seed": seed}
            ).raise_for_status()
        time.sleep(2)  # the search bots are busy
        played = unanswered = 0
        while played < moves:
            seats = [{"name": "Ann"}, {"name": "Rob", "bot": {"kind": "random"}}]
            match = http.post("/api/matches", json={"game": "tic-tac-toe", "seats": seats}).json()
            match_id = match["id"]
            token = http.post(f"/api/matches/{match_id}/seats/p1").json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            while played < moves:
                view = _timed(
                    requests, partial(http.get, f"/api/matches/{match_id}/view", headers=auth)
                ).json()
                if view["status"] != "in_progress":
                    break
                body = view["legal_actions"][0]
                post = partial(
                    http.post, f"/api/matches/{match_id}/actions/PlaceMark", json=body, headers=auth
                )
                _timed(requests, post)
                start = time.perf_counter()
                deadline = start + float(os.environ.get("TABLETOP_BENCH_REPLY_TIMEOUT", "120"))
                answered = False
                while time.perf_counter() < deadline:
                    info = _timed(requests, partial(http.get, f"/api/matches/{match_id}")).json()
                    if info["index"] >= view["index"] + 2 or info["status"] != "in_progress":
                        answered = True
                        break
                    time.sleep(0.005)
                replies.append(time.perf_counter() - start)
                played += 1
                if not answered:  # counted at the timeout (a lower bound); a new match
                    unanswered += 1
                    break
    note = (
        f"{len(requests)} requests, {len(replies)} bot replies ({unanswered} not within the timeout); "
        "2 go-fish matches of 6 MCTS bots running"
    )
    return [
        Row("bots: human request p50 ms", "tic-tac-toe vs random", _ms(requests, 0.5), note=note),
        Row("bots: human request p99 ms", "tic-tac-toe vs random", _ms(requests, 0.99), note=note),
        Row("bots: random bot reply p50 ms", "tic-tac-toe vs random", _ms(replies, 0.5), note=note),
        Row("bots: random bot reply p99 ms", "tic-tac-toe vs random", _ms(replies, 0.99), note=note),
    ]


def _reader(url: str, stop: threading.Event) -> None:
    try:
        with (
            httpx.Client(timeout=httpx.Timeout(30, read=120)) as client,
            client.stream("GET", url) as response,
        ):
            for _ in response.iter_bytes():
                if stop.is_set():
                    return
    except (httpx.HTTPError, OSError):
        return


def _silent(url: str) -> socket.socket:
    parsed = httpx.URL(url)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect((parsed.host, parsed.port or 80))
    target = parsed.raw_path.decode()
    sock.sendall(f"GET {target} HTTP/1.1\r\nHost: {parsed.host}\r\n\r\n".encode())
    return sock  # never read


def fanout(budget: Budget) -> list[Row]:
    """``GET /api/games`` and a view with 200 streams on a match being played (50 never read)."""
    actions = 20 if budget.name == "smoke" else 60
    rows: list[Row] = []
    with _server() as server, httpx.Client(base_url=server.url, timeout=60) as http:
        quiet_games: list[float] = []
        for _ in range(30):
            _timed(quiet_games, lambda: http.get("/api/games"))
        match = http.post("/api/matches", json={"game": "go-fish", "seats": [{}, {}], "seed": 3}).json()
        match_id = match["id"]
        tokens = {p: http.post(f"/api/matches/{match_id}/seats/{p}").json()["token"] for p in ("p1", "p2")}
        stop = threading.Event()
        threads: list[threading.Thread] = []
        silent: list[socket.socket] = []
        for n in range(200):
            auth = {"Authorization": f"Bearer {tokens['p1' if n % 2 else 'p2']}"} if n % 3 else {}
            stream_token = http.post(f"/api/matches/{match_id}/stream-tokens", headers=auth).json()[
                "stream_token"
            ]
            url = f"{server.url}/api/matches/{match_id}/events?stream_token={stream_token}"
            if n < 50:
                silent.append(_silent(url))
            else:
                thread = threading.Thread(target=_reader, args=(url, stop), daemon=True)
                thread.start()
                threads.append(thread)
        time.sleep(2)
        games: list[float] = []
        views: list[float] = []
        for _ in range(actions):
            mover = None
            for token in tokens.values():
                auth = {"Authorization": f"Bearer {token}"}
                view = _timed(views, partial(http.get, f"/api/matches/{match_id}/view", headers=auth)).json()
                if view["legal_actions"]:
                    mover = (auth, view)
            if mover is None or view["status"] != "in_progress":
                break
            auth, view = mover
            kind = view["legal_actions"][0]["type"]
            http.post(f"/api/matches/{match_id}/actions/{kind}", json=view["legal_actions"][0], headers=auth)
            _timed(games, lambda: http.get("/api/games"))
        stop.set()
        for sock in silent:
            sock.close()
        note = "200 streams (50 never read) on the match while it is played"
        rows += [
            Row(
                "fanout: GET /api/games median ms",
                "go-fish",
                statistics.median(games) * 1000,
                baseline=statistics.median(quiet_games) * 1000,
                baseline_label="no streams",
                note=note,
            ),
            Row("fanout: view median ms", "go-fish", statistics.median(views) * 1000, note=note),
        ]
    return rows


FAIRNESS_CASES: dict[str, Callable[[Budget], list[Row]]] = {"bots": bots, "fanout": fanout}
"""The fairness cases."""
