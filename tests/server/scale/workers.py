"""Worker processes (``tabletop serve`` subprocesses on loopback ports) and the load's players.

``Worker`` starts one ``tabletop serve`` process; ``Player`` plays random legal actions of one
match through a list of workers, retrying a failed request with the same action id on the next
worker, and records every action id a worker acknowledged; ``check_match`` verifies a match
afterwards against the store (stored exactly once, state equals a replay of its log) and against
the events its stream delivered (every action, in order).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from tabletop_fixtures.live_server import NO_RATE_LIMITS_ENV, Api, EventReader, free_port, open_stream
from tabletop_server.storage import Store

from tests.server.api.replay import replayed_state

__all__ = ["Player", "Worker", "check_match", "check_stream", "start_workers"]

TABLETOP = Path(sys.executable).parent / "tabletop"
Json = Any


class Worker:
    """One ``tabletop serve`` process on a free loopback port.

    Args:
        url: The (migrated) database URL.
        log: Where its output goes.
    """

    def __init__(self, url: str, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "TABLETOP_MIGRATE": "false",
            "TABLETOP_KEEPALIVE_SECONDS": "1",
            "TABLETOP_BOT_TAKEOVER_SECONDS": "0.5",
            "TABLETOP_DB_POOL_TIMEOUT": "5",
            **NO_RATE_LIMITS_ENV,
        }
        self._log = log.open("ab")
        command = [str(TABLETOP), "serve", "--db", url, "--host", "127.0.0.1", "--port", str(self.port)]
        command += ["--ui-dir", str(log.parent / "no-ui")]
        self.process = subprocess.Popen(command, env=env, stdout=self._log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 60) -> None:
        """Block until it answers ``GET /api/games``."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                msg = f"worker on {self.port} exited with {self.process.returncode}"
                raise RuntimeError(msg)
            try:
                if httpx.get(f"{self.url}/api/games", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        msg = f"worker on {self.port} did not start"
        raise RuntimeError(msg)

    def kill(self) -> None:
        """``kill -9``."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop it (SIGTERM, then SIGKILL) and close its log."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()


def start_workers(url: str, count: int, folder: Path) -> list[Worker]:
    """Start ``count`` workers on one database and wait until all serve."""
    workers = [Worker(url, folder / f"worker-{n}.log") for n in range(count)]
    try:
        for worker in workers:
            worker.wait_ready()
    except BaseException:
        for worker in workers:
            worker.stop()
        raise
    return workers


@dataclass
class Player:
    """Random legal actions of one match's seats, through several workers in turn.

    Attributes:
        match_id: The match.
        tokens: Seat tokens by player id.
        urls: The workers' base URLs; request ``n`` goes to ``urls[n % len(urls)]`` first.
        acknowledged: Action ids a worker answered 200 for.
        errors: Non-200 answers other than the expected refusals: ``(status, code)``.
    """

    match_id: str
    tokens: dict[str, str]
    urls: list[str]
    seed: int
    acknowledged: list[str] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    _requests: int = 0
    _clients: dict[str, httpx.Client] = field(default_factory=dict)

    def _client(self, url: str) -> httpx.Client:
        client = self._clients.get(url)
        if client is None:
            client = self._clients[url] = httpx.Client(base_url=url, timeout=httpx.Timeout(10, connect=2))
        return client

    def close(self) -> None:
        """Close the connections."""
        for client in self._clients.values():
            client.close()
        self._clients.clear()

    def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        """Send through the next worker; on a connection failure or 503, retry on the others."""
        last: Exception | None = None
        for attempt in range(40):
            url = self.urls[(self._requests + attempt) % len(self.urls)]
            try:
                response = self._client(url).request(method, path, **kwargs)
            except httpx.TransportError as error:  # a dead worker
                self._clients.pop(url).close()
                last = error
                time.sleep(0.05)
                continue
            if response.status_code == 503:
                body = response.json()
                assert set(body) >= {"code", "message", "path"} and body["code"] == "storage-unavailable"
                self.errors.append((503, body["code"]))
                time.sleep(0.2)
                continue
            self._requests += 1
            return response
        msg = f"no worker answered {method} {path}: {last}"
        raise RuntimeError(msg)

    def step(self, rng: random.Random) -> bool:
        """Play one random legal action for a seat that may act; False once the match is over."""
        for token in self.tokens.values():
            headers = {"Authorization": f"Bearer {token}"}
            answer = self.request("GET", f"/api/matches/{self.match_id}/view", headers=headers)
            view = answer.json()
            if answer.status_code != 200:  # recorded: the test decides which errors are clean
                self.errors.append((answer.status_code, view["code"]))
                return True
            if view["status"] != "in_progress":
                return False
            if not view["legal_actions"]:
                continue
            body = dict(rng.choice(view["legal_actions"]))
            body["id"] = f"{self.match_id}-{self.seed}-{self._requests}-{rng.getrandbits(32)}"
            response = self.request(
                "POST", f"/api/matches/{self.match_id}/actions/{body['type']}", json=body, headers=headers
            )
            if response.status_code == 200:
                self.acknowledged.append(body["id"])
            else:  # a racing client moved first: a clean refusal, nothing applied
                code = response.json()["code"]
                assert response.status_code in (403, 409, 422), (response.status_code, response.text)
                self.errors.append((response.status_code, code))
            return True
        return True


def check_match(store: Store, match_id: str, acknowledged: list[str]) -> int:
    """Every acknowledged action stored exactly once, the state a replay of the log; the head."""
    rows = store.actions(match_id)
    assert [row.index for row in rows] == list(range(len(rows)))
    submitted = [row.submission_id for row in rows if row.source == "user"]
    for action_id in acknowledged:
        assert submitted.count(action_id) == 1, (match_id, action_id)
    assert len(set(submitted)) == len(submitted)
    replayed, stored = replayed_state(store, match_id)
    assert orjson.loads(replayed.model_dump_json()) == orjson.loads(stored), match_id
    return len(rows)


def check_stream(reader: EventReader, head: int, timeout: float = 20) -> None:
    """The stream delivered a snapshot, then every action up to ``head``, in order, no gaps.

    A clocked match's stream may also carry ``clock`` events between them: a worker whose copy of
    the clock was behind the match writes an action without its clock, and its clock thread
    catches up from the log after the commit. Such an event carries no action and never a clock
    ahead of the actions the stream delivered.
    """
    first = reader.next(timeout)
    assert first.event == "snapshot", first.event
    expected = first.data["index"]
    deadline = time.monotonic() + timeout
    while expected < head:
        event = reader.next(max(0.1, deadline - time.monotonic()))
        if event.event == "clock":
            assert event.data["index"] <= expected, (event.data["index"], expected)
            continue
        assert event.event == "update", (event.event, event.data.get("index"))
        indices = [action["index"] for action in event.data["actions"]]
        assert indices == list(range(expected, expected + len(indices))), (expected, indices)
        expected += len(indices)
        assert event.id == expected - 1 and event.data["index"] == expected
    assert expected == head


def stream(url: str, match_id: str, token: str | None) -> EventReader:
    """Follow the match on the worker at ``url``."""
    api = Api(url)
    try:
        return open_stream(api, match_id, token)
    finally:
        api.close()
