"""The clock's cost on the action path, counted in SQL (not timed): a clocked match is created and
each of its actions written in as many transactions and statements as a match without a clock (on
PostgreSQL the clock's write rides in the statement that queues the change's NOTIFY; its row is at
the new head when the answer arrives). SQLite's action path runs its statements on the raw
connection: there only the transactions are seen."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
from sqlalchemy import event
from tabletop_fixtures.live_server import Api, LiveServer, live_server

Json = Any

BACKGROUND: tuple[str, ...] = ("tabletop-clocks", "tabletop-outbox", "tabletop-webhook", "tabletop-bot")
BACKGROUND += (
    "tabletop-listen",
    "tabletop-warmup",
    "tabletop-sqlite-checkpoint",
    "tabletop-maintenance",
    "MainThread",
)
"""Threads whose SQL is not a request's (the workers' pollers, and the test's own reads)."""

CHESS = {"control": {"type": "chess", "main_seconds": 3600}, "policy": {"on_timeout": "forfeit"}}


@dataclass
class SqlLog:
    """The statements and commits the server's requests issued."""

    statements: list[str] = field(default_factory=list)
    commits: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def clear(self) -> None:
        with self.lock:
            self.statements.clear()
            self.commits = 0

    def counted(self) -> tuple[int, list[str]]:
        with self.lock:
            return self.commits, list(self.statements)


def _request_thread() -> bool:
    return not threading.current_thread().name.startswith(BACKGROUND)


@contextmanager
def _listening(server: LiveServer) -> Iterator[SqlLog]:
    log = SqlLog()
    engines = server.app.state.service.store._engines

    def on_statement(conn: object, cursor: object, statement: str, *args: object) -> None:
        if _request_thread():
            with log.lock:
                key = " ".join(statement.split()[:3])
                if "pg_notify" in statement:  # (and what rides in it, in a WITH clause or not)
                    key = (
                        "pg_notify [notify] [clock]" if "UPDATE clocks" in statement else "pg_notify [notify]"
                    )
                log.statements.append(key)

    def on_commit(conn: object) -> None:
        if _request_thread():
            with log.lock:
                log.commits += 1

    targets = {id(engine): engine for engine in (engines.writer, engines.reader)}.values()
    for engine in targets:
        event.listen(engine, "before_cursor_execute", on_statement)
        event.listen(engine, "commit", on_commit)
    try:
        yield log
    finally:
        for engine in targets:
            event.remove(engine, "before_cursor_execute", on_statement)
            event.remove(engine, "commit", on_commit)


@pytest.fixture
def counted(migrated_url: str) -> Iterator[tuple[LiveServer, Api, SqlLog]]:
    """A server (its keeper looks for due clocks only at start), a client, and its requests' SQL."""
    with live_server(migrated_url, clock_poll_seconds=60) as server, _listening(server) as log:
        client = Api(server.url)
        try:
            yield server, client, log
        finally:
            client.close()


def _create(api: Api, log: SqlLog, clock: Json) -> tuple[str, tuple[int, list[str]]]:
    body: Json = {"game": "tic-tac-toe", "seats": [{"name": "One"}, {"name": "Two"}]}
    if clock is not None:
        body["clock"] = clock
    log.clear()
    match = api.ok(api.http.post("/api/matches", json=body), 201)
    return match["id"], log.counted()


def _moves(
    api: Api, log: SqlLog, match_id: str, count: int, server: LiveServer | None = None
) -> list[tuple[int, list[str]]]:
    """Play ``count`` moves: each one's SQL (with ``server``: its clock row is at the move's head
    as soon as the answer arrives, written with the action)."""
    tokens = {p: api.join(match_id, p) for p in ("p1", "p2")}
    seen = []
    for n in range(count):
        token = tokens["p1" if n % 2 == 0 else "p2"]
        body = api.view(match_id, token)["legal_actions"][0]
        log.clear()
        api.ok(api.post_action(match_id, token, body))
        seen.append(log.counted())
        if server is not None:
            stored = server.app.state.service.store.get_clock(match_id)
            assert stored is not None
            assert stored.head == n + 1
    return seen


def test_a_clocked_action_costs_no_extra_transaction(counted: tuple[LiveServer, Api, SqlLog]) -> None:
    server, api, log = counted
    postgres = server.app.state.service.store.dialect == "postgresql"
    plain_id, plain_created = _create(api, log, None)
    clocked_id, clocked_created = _create(api, log, CHESS)
    assert clocked_created[0] == plain_created[0]  # the clock's row goes in with the match
    created_sql = ["INSERT INTO clocks"] if postgres else []
    assert sorted(clocked_created[1]) == sorted([*plain_created[1], *created_sql])
    started = server.app.state.service.store.get_clock(clocked_id)
    assert started is not None and started.head == 0  # stored with the match, not after it
    plain = _moves(api, log, plain_id, 3)
    clocked = _moves(api, log, clocked_id, 3, server)
    for (plain_commits, plain_sql), (commits, sql) in zip(plain, clocked, strict=True):
        assert commits == plain_commits == 1
        if postgres:  # the clock's write and the outbox rows go in the statement of the NOTIFY
            assert len([statement for statement in plain_sql if statement.endswith("[notify]")]) == 1
            assert not [statement for statement in plain_sql if "webhook_deliveries" in statement]
            plain_sql = [f"{line} [clock]" if line.endswith("[notify]") else line for line in plain_sql]
        assert sorted(sql) == sorted(plain_sql)  # (SQLite's action path runs raw SQL, unseen)


def _joins(api: Api, log: SqlLog, match_id: str) -> list[tuple[int, list[str]]]:
    """Claim both seats: each claim's SQL."""
    seen = []
    for player_id in ("p1", "p2"):
        log.clear()
        api.join(match_id, player_id)
        seen.append(log.counted())
    return seen


def test_a_waiting_seats_clock_starts_in_its_claims_transaction(
    counted: tuple[LiveServer, Api, SqlLog],
) -> None:
    """A claim starts the clock that waited for the seat in its own transaction: one statement
    more than a claim without a clock (PostgreSQL; SQLite's runs raw), no read or write after it."""
    server, api, log = counted
    postgres = server.app.state.service.store.dialect == "postgresql"
    clock_sql = ["pg_notify [notify] [clock]"] if postgres else []  # the clock's start, notified
    plain_id, _ = _create(api, log, None)
    clocked_id, _ = _create(api, log, CHESS)
    plain = _joins(api, log, plain_id)
    clocked = _joins(api, log, clocked_id)
    for (plain_commits, plain_sql), (commits, sql) in zip(plain, clocked, strict=True):
        assert commits == plain_commits == 1
        assert not [statement for statement in plain_sql if "clocks" in statement]
        assert sorted(sql) == sorted([*plain_sql, *clock_sql])
    stored = server.app.state.service.store.get_clock(clocked_id)
    assert stored is not None and stored.head == 0
    seats = orjson.loads(stored.state_json)["seats"]
    assert not seats["p1"]["waiting"] and not seats["p2"]["waiting"]
    assert seats["p1"]["since_ms"] is not None  # to act: running since the claim
    assert seats["p2"]["since_ms"] is None
    assert stored.due_at is not None
