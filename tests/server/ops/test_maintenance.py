"""Maintenance: SQLite's write-ahead log is truncated, spent stream tokens are purged, and the
retention settings delete matches never started or abandoned (never finished ones)."""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import create_engine, func, select, update
from tabletop_fixtures.live_server import Api, live_server


def _until(condition: Callable[[], bool], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_the_write_ahead_log_is_truncated_once_it_passes_its_limit(tmp_path: Path) -> None:
    from tabletop_server.storage import NewMatch, NewSeat, Store, StoreOptions, upgrade

    path = tmp_path / "db.sqlite3"
    url = f"sqlite:///{path}"
    upgrade(url)
    limit = 256 * 1024
    options = StoreOptions(sqlite_wal_max_bytes=limit, sqlite_checkpoint_seconds=0.1)
    wal = Path(f"{path}-wal")
    with Store(url, options=options) as store:
        reader = sqlite3.connect(path)  # a long read keeps the log from being reset meanwhile
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM matches").fetchone()
        for n in range(150):
            match = NewMatch(
                id=f"m{n}", game="g", logic_version="1", config={}, seed=n, prng_key=None,
                state_json="x" * 10_000, checksum=0, status="in_progress", result=None, winners=(),
            )  # fmt: skip
            store.create_match(match, [NewSeat(player_id="p1", name="A", bot=None)])
        grown = os.path.getsize(wal)
        assert grown > 4 * limit
        reader.rollback()
        reader.close()
        _until(lambda: os.path.getsize(wal) <= limit, f"the log stayed at {os.path.getsize(wal)} bytes")
        assert len(store.list_matches(limit=500)) == 150
    with sqlite3.connect(path) as check:
        assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_while_writes_go_on_the_log_is_never_emptied_under_the_writers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``TRUNCATE`` checkpoint holds every writer while it runs: under a steady stream of writes
    the log is left to SQLite (``journal_size_limit`` at each reset), and emptied only once the
    writes stop."""
    from sqlalchemy import Connection, event
    from tabletop_server.storage import StoreOptions, _writer
    from tabletop_server.storage._engines import open_engines
    from tabletop_server.storage._url import normalize_url

    monkeypatch.setattr(_writer, "PINNED", 1_000)  # (no reader pins the log here)
    path = tmp_path / "db.sqlite3"
    limit = 64 * 1024
    options = StoreOptions(sqlite_wal_max_bytes=limit, sqlite_checkpoint_seconds=0.05)
    engines = open_engines(normalize_url(f"sqlite:///{path}"), options)
    checkpoints: list[str] = []

    @event.listens_for(engines.reader, "connect")
    def _trace(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.set_trace_callback(
            lambda sql: checkpoints.append(sql) if "checkpoint(" in sql else None
        )

    wal = Path(f"{path}-wal")
    writer = _writer.SqliteWriter(
        engines.writer, checkpoints=engines.reader, every=0.05, wal_path=str(wal), wal_max_bytes=limit
    )

    def insert(connection: Connection) -> None:
        connection.exec_driver_sql("INSERT INTO t (v) VALUES (?)", ("x" * 8_000,))

    try:
        writer.run(lambda connection: connection.exec_driver_sql("CREATE TABLE t (v TEXT)"))
        largest = 0
        while len(checkpoints) < 20:  # writes go on for twenty looks of the checkpointer
            writer.run(insert)
            largest = max(largest, os.path.getsize(wal))
            time.sleep(0.002)
        assert largest > limit  # (a checkpointer that empties the log past its limit would have)
        assert not [sql for sql in checkpoints if "TRUNCATE" in sql], "the log was emptied under the writers"
        _until(
            lambda: os.path.getsize(wal) <= limit and any("TRUNCATE" in sql for sql in checkpoints),
            "the log was not emptied once the writes stopped",
        )
    finally:
        writer.close()
        engines.writer.dispose()
        engines.reader.dispose()


def test_spent_stream_tokens_are_purged(tmp_path: Path) -> None:
    from tabletop_server.storage._tables import stream_tokens

    path = tmp_path / "db.sqlite3"
    with live_server(f"sqlite:///{path}", stream_token_ttl=0.5, maintenance_seconds=0.2) as server:
        api = Api(server.url)
        try:
            match = api.create("tic-tac-toe")
            for _ in range(5):
                api.stream_token(match["id"])
            engine = create_engine(f"sqlite:///{path}")

            def left() -> int:
                with engine.connect() as connection:
                    return int(
                        connection.execute(select(func.count()).select_from(stream_tokens)).scalar_one()
                    )

            _until(lambda: left() == 0, "expired stream tokens were kept")
            fresh = api.stream_token(match["id"])  # the purge never takes a live token
            reader = api.http.get(f"/api/matches/{match['id']}/view")
            assert reader.status_code == 200 and fresh
            engine.dispose()
        finally:
            api.close()


def test_retention_deletes_matches_never_started_and_keeps_played_ones(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    settings = {"retention_unstarted_hours": 2 / 3600, "maintenance_seconds": 0.2}
    with live_server(f"sqlite:///{path}", **settings) as server:
        api = Api(server.url)
        try:
            idle = api.create("tic-tac-toe")
            played = api.create("tic-tac-toe")
            token = api.join(played["id"], "p1")
            api.ok(api.post_action(played["id"], token, {"type": "PlaceMark", "square": {"x": 1, "y": 1}}))
            _until(lambda: api.http.get(f"/api/matches/{idle['id']}").status_code == 404, "never deleted")
            assert api.match(played["id"])["index"] == 1
        finally:
            api.close()


def test_abandoned_unfinished_matches_go_and_finished_ones_stay(migrated_url: str) -> None:
    from tabletop_server import Settings
    from tabletop_server._maintenance import Maintenance
    from tabletop_server.storage import NewAction, NewMatch, NewSeat, Store
    from tabletop_server.storage._convert import now
    from tabletop_server.storage._tables import matches

    def new(match_id: str, status: str) -> NewMatch:
        return NewMatch(
            id=match_id, game="g", logic_version="1", config={}, seed=1, prng_key=None, state_json="{}",
            checksum=0, status=status, result=None, winners=(),
        )  # fmt: skip

    def action(match_id: str) -> NewAction:
        return NewAction(
            index=0, action_id="a0", player_id="p1", type="T", source="user", reveals_info=False,
            json="{}", submission_id=None,
        )  # fmt: skip

    with Store(migrated_url) as store:
        seat = [NewSeat(player_id="p1", name="A", bot=None)]
        store.create_match(new("old-unstarted", "in_progress"), seat)
        store.create_match(new("old-abandoned", "in_progress"), seat, [action("old-abandoned")])
        store.create_match(new("old-finished", "finished"), seat, [action("old-finished")])
        store.create_match(new("new-unstarted", "in_progress"), seat)
        store.create_match(new("new-played", "in_progress"), seat, [action("new-played")])
        long_ago = now() - timedelta(days=400)
        old = ["old-unstarted", "old-abandoned", "old-finished"]
        store._transact(
            lambda c: c.execute(
                update(matches).where(matches.c.id.in_(old)).values(created_at=long_ago, updated_at=long_ago)
            )
        )
        keep_all = Settings(retention_unstarted_hours=0, retention_abandoned_days=0)
        assert Maintenance(store, keep_all).run_once() == (0, 0)
        only_unstarted = Settings(retention_unstarted_hours=24, retention_abandoned_days=0)
        assert Maintenance(store, only_unstarted).run_once() == (0, 1)
        assert {m.id for m in store.list_matches()} == {
            "old-abandoned", "old-finished", "new-unstarted", "new-played",
        }  # fmt: skip
        abandoned = Settings(retention_unstarted_hours=24, retention_abandoned_days=90)
        assert Maintenance(store, abandoned).run_once() == (0, 1)
        assert {m.id for m in store.list_matches()} == {"old-finished", "new-unstarted", "new-played"}
        assert store.actions("old-abandoned") == []
        assert store.get_seats("old-abandoned") == []
