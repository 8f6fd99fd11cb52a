"""The connection guard of ``tabletop serve``: silent and half-sent requests are closed after
the request timeout, and more silent sockets than the open-file limit allows never make a new
request fail (the idle ones are closed to make room)."""

from __future__ import annotations

import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from tabletop_fixtures.live_server import NO_RATE_LIMITS_ENV, free_port

TABLETOP = Path(sys.executable).parent / "tabletop"
FILE_LIMIT = 1024
SILENT = 1100
EXTRA_ENV: dict[str, str] = {}


@dataclass
class Served:
    url: str
    port: int
    log: Path


def _limit_files() -> None:  # runs in the server's process before it starts
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``tabletop serve`` (SQLite) with a 1,024 open-file limit, soft and hard (it cannot raise
    it), and a 2-second request timeout."""
    tmp_path = tmp_path_factory.mktemp("guard")
    port = free_port()
    log = tmp_path / "serve.log"
    env = os.environ | NO_RATE_LIMITS_ENV | {"TABLETOP_REQUEST_TIMEOUT": "2"} | EXTRA_ENV
    command = [str(TABLETOP), "serve", "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}", "--port", str(port)]
    command += ["--ui-dir", str(tmp_path / "no-ui")]
    with log.open("wb") as output:
        process = subprocess.Popen(
            command, env=env, stdout=output, stderr=subprocess.STDOUT, preexec_fn=_limit_files
        )
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, log.read_text()[-2000:]
                try:
                    if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
            yield Served(url, port, log)
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=10)


def _connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    return sock


def _closed_within(sock: socket.socket, timeout: float) -> tuple[bool, bytes]:
    """Whether the server closed ``sock`` within ``timeout`` s, and what it sent before."""
    sock.settimeout(timeout)
    received = b""
    try:
        while True:
            chunk = sock.recv(65536)
            if not chunk:
                return True, received
            received += chunk
    except TimeoutError:
        return False, received
    except ConnectionResetError:
        return True, received


@pytest.mark.parametrize(
    "sent",
    [
        b"",  # a silent socket
        b"GET /api/games HTTP/1.1\r\nHost: x\r\n",  # half-sent headers
        b"POST /api/matches HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"game": ',  # a half-sent body
    ],
    ids=["silent", "half-headers", "half-body"],
)
def test_a_connection_without_a_complete_request_is_closed_after_the_timeout(
    served: Served, sent: bytes
) -> None:
    with _connect(served.port) as sock:
        sock.sendall(sent)
        started = time.monotonic()
        closed, received = _closed_within(sock, 60)
        elapsed = time.monotonic() - started
    assert closed, "the server kept the connection open"
    assert received == b""  # closed without an answer: there was no request
    assert elapsed >= 1.5  # not at once: after the 2-second timeout


def test_a_connection_that_keeps_sending_requests_and_a_long_response_are_not_cut(served: Served) -> None:
    with httpx.Client(base_url=served.url, timeout=30) as client:
        created = client.post("/api/matches", json={"game": "tic-tac-toe", "seats": [{}, {}]})
        match_id = created.json()["id"]
        token = client.post(f"/api/matches/{match_id}/stream-tokens").json()["stream_token"]
        with client.stream(
            "GET", f"/api/matches/{match_id}/events", params={"stream_token": token}
        ) as stream:
            lines = stream.iter_lines()
            started = time.monotonic()
            seen = 0
            for _line in lines:  # an event stream outlives the request timeout (2 s): keep-alives
                seen += 1
                if time.monotonic() - started > 5:
                    break
            assert seen >= 3
        for _ in range(3):  # one keep-alive connection, a request every second
            assert client.get("/api/games").status_code == 200
            time.sleep(1)


def test_more_silent_sockets_than_the_file_limit_never_make_new_requests_fail(served: Served) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < SILENT + 200:
        if hard != resource.RLIM_INFINITY and hard < SILENT + 200:
            pytest.skip(f"the test process may open only {hard} files")
        resource.setrlimit(resource.RLIMIT_NOFILE, (SILENT + 500, hard))
    silent: list[socket.socket] = []
    try:
        for _ in range(SILENT):
            silent.append(_connect(served.port))
        statuses = []
        with httpx.Client(base_url=served.url, timeout=20) as client:
            for _ in range(20):  # each on a fresh connection
                statuses.append(client.get("/api/games", headers={"Connection": "close"}).status_code)
            created = client.post("/api/matches", json={"game": "tic-tac-toe", "seats": [{}, {}]})
        assert statuses == [200] * 20
        assert created.status_code == 201
    finally:
        for sock in silent:
            sock.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert "Too many open files" not in served.log.read_text()
