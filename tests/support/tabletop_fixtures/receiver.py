"""A loopback webhook receiver: records every POST; can fail, stall, garble, hold or trickle on purpose."""

from __future__ import annotations

import hashlib
import hmac
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import orjson

__all__ = ["Arrival", "Delivered", "Receiver", "receiver", "verify_signature"]


@dataclass(frozen=True)
class Delivered:
    """One POST the receiver got."""

    headers: dict[str, str]
    body: bytes
    answered: int

    @property
    def event(self) -> dict[str, object]:
        """The JSON body."""
        value = orjson.loads(self.body)
        assert isinstance(value, dict)
        return value


@dataclass(frozen=True)
class Arrival:
    """One POST as it arrived, before it was answered (a held one is never answered)."""

    body: bytes
    port: int
    """The sender's source port on loopback (its connection is open while ``on_arrival`` runs)."""
    at: float
    """``time.time()`` when it arrived."""
    held: bool
    trickled: bool = False
    """Answered a byte at a time, never finishing (see ``Receiver.trickle``)."""

    @property
    def event(self) -> dict[str, object]:
        """The JSON body."""
        value = orjson.loads(self.body)
        assert isinstance(value, dict)
        return value


def verify_signature(secret: str, header: str, body: bytes, *, tolerance: float = 300) -> bool:
    """What a receiver does: recompute ``Tabletop-Signature`` and check its time is recent."""
    parts = dict(part.split("=", 1) for part in header.split(","))
    timestamp = int(parts["t"])
    expected = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return hmac.compare_digest(expected, parts["v1"]) and abs(time.time() - timestamp) <= tolerance


@dataclass
class Receiver:
    """The receiver's URL, what it got, and how it answers the next requests."""

    url: str
    got: list[Delivered] = field(default_factory=list)
    fail_next: int = 0
    """Answer this many next requests with 500."""
    stall: float = 0.0
    """Seconds to wait before answering."""
    requests_seen: int = 0
    """Requests that arrived (answered or not yet)."""
    hold: int = 0
    """Hold this many next requests open, unanswered, until ``release`` is set (then drop them)."""
    trickle: int = 0
    """Answer this many next requests with a status line and then one header byte every 50 ms,
    never finishing, until ``release`` is set (then drop them)."""
    garble: int = 0
    """Answer this many next requests with a line that is not HTTP, then drop them."""
    hung_up: list[Arrival] = field(default_factory=list)
    """Held or trickled requests whose sender closed the connection before ``release``."""
    on_arrival: Callable[[Arrival], None] | None = None
    """Called in the request's thread as each request arrives (a held one too), before answering."""
    arrived: list[Arrival] = field(default_factory=list)
    """Every request as it arrived, answered or held."""
    release: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    changed: threading.Condition = field(init=False)

    def __post_init__(self) -> None:
        self.changed = threading.Condition(self.lock)

    def wait_for(self, count: int, timeout: float = 30, *, ok_only: bool = True) -> list[Delivered]:
        """Block until ``count`` requests (answered 2xx with ``ok_only``) arrived; all of them."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                seen = [d for d in self.got if d.answered < 300 or not ok_only]
                if len(seen) >= count:
                    return seen
                left = deadline - time.monotonic()
                assert left > 0, f"{len(seen)} of {count} deliveries after {timeout}s: {self.got}"
                self.changed.wait(left)


def _hung_up(connection: socket.socket) -> bool:
    """Whether the peer closed ``connection`` (its request was read whole: nothing else comes)."""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and connection.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True


@contextmanager
def receiver() -> Iterator[Receiver]:
    """Run a receiver on a free loopback port until the block ends."""
    state: list[Receiver] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            got = state[0]
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with got.lock:
                got.requests_seen += 1
                held = got.hold > 0
                trickled = not held and got.trickle > 0
                arrival = Arrival(body, int(self.client_address[1]), time.time(), held, trickled)
                got.hold = max(0, got.hold - 1)
                got.trickle = max(0, got.trickle - 1) if trickled else got.trickle
                got.arrived.append(arrival)
            if got.on_arrival is not None:
                got.on_arrival(arrival)
            if arrival.held or arrival.trickled:
                self._keep(got, arrival)
                return
            if got.stall:
                time.sleep(got.stall)
            with got.lock:
                garbled = got.garble > 0
                got.garble = max(0, got.garble - 1)
            if garbled:
                self.wfile.write(b"HELLO THERE\r\n\r\n")
                self.close_connection = True
                return
            with got.lock:
                status = 500 if got.fail_next > 0 else 204
                got.fail_next = max(0, got.fail_next - 1)
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
            with got.changed:
                got.got.append(Delivered(dict(self.headers.items()), body, status))
                got.changed.notify_all()

        def _keep(self, got: Receiver, arrival: Arrival) -> None:
            """Hold or trickle until ``release``, or until the sender hangs up (then drop it)."""
            self.close_connection = True
            try:
                if arrival.trickled:
                    self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Trickle: ")
                while not got.release.wait(0.05):
                    if _hung_up(self.connection):
                        break
                    if arrival.trickled:
                        self.wfile.write(b"x")
                else:
                    return
            except OSError:  # the sender went away while a byte was being written
                pass
            with got.changed:
                got.hung_up.append(arrival)
                got.changed.notify_all()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    state.append(Receiver(f"http://127.0.0.1:{server.server_address[1]}/hook"))
    thread = threading.Thread(target=server.serve_forever, name="webhook-receiver", daemon=True)
    thread.start()
    try:
        yield state[0]
    finally:
        state[0].release.set()
        server.shutdown()
        server.server_close()
