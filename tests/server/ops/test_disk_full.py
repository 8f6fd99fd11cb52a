"""A full disk on SQLite: writes answer ``503 storage-full`` (never a 500), reads keep working,
the writer recovers by itself once there is room, and nothing acknowledged is lost.

Two full disks: the database size cap (``sqlite_max_bytes``: SQLite's ``max_page_count``, which
refuses a statement that needs a new page; portable), and a real one, a 600 KiB tmpfs (a
commit fails writing the log; needs root, and skipped where mounting is not allowed) — the
failed commit that used to leave the single writer connection unusable until a restart."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from tabletop_fixtures.live_server import Api, live_server

CAP = 320 * 1024
"""Bytes the database may hold: a few dozen matches."""

BODY = {"game": "go-fish", "seats": [{"name": "A"}, {"name": "B"}, {"name": "C"}]}


def _full(response: httpx.Response) -> bool:
    if response.status_code == 503:
        body = response.json()
        assert body["code"] == "storage-full", body
        assert set(body) == {"code", "message", "path"}
        return True
    return False


@dataclass
class Disk:
    database: Path
    settings: dict[str, object]
    free: Callable[[list[str]], list[str]]
    """Make room; returns the acknowledged matches that must still be there."""


def _delete_half(database: Path) -> Callable[[list[str]], list[str]]:
    def free(acknowledged: list[str]) -> list[str]:
        half = len(acknowledged) // 2
        with sqlite3.connect(database) as connection:  # another process deletes half the matches
            connection.execute("PRAGMA foreign_keys=ON")
            connection.executemany("DELETE FROM matches WHERE id = ?", [(m,) for m in acknowledged[:half]])
        return acknowledged[half:]

    return free


@pytest.fixture(params=["size-cap", "tmpfs"])
def disk(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Disk]:
    if request.param == "size-cap":
        database = tmp_path / "db.sqlite3"
        yield Disk(database, {"sqlite_max_bytes": CAP}, _delete_half(database))
        return
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", str(mount)], capture_output=True, check=False
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.decode(errors='replace').strip()}")
    try:
        filler = mount / "filler"
        filler.write_bytes(b"\0" * 200_000)

        def free(acknowledged: list[str]) -> list[str]:
            filler.unlink()
            return acknowledged

        yield Disk(mount / "db.sqlite3", {}, free)
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False, timeout=60)


def test_disk_full_is_a_typed_503_reads_go_on_and_the_writer_recovers(disk: Disk) -> None:
    database = disk.database
    with live_server(f"sqlite:///{database}", **disk.settings) as server:
        api = Api(server.url)
        try:
            tic = api.create("tic-tac-toe")
            tokens = {p: api.join(tic["id"], p) for p in ("p1", "p2")}
            acknowledged: list[str] = []
            full = None
            for _ in range(2000):
                response = api.http.post("/api/matches", json=BODY)
                if _full(response):
                    full = response
                    break
                assert response.status_code == 201, response.text
                acknowledged.append(response.json()["id"])
            assert full is not None, "the cap was never reached"
            # every write refused in the one typed shape, again and again (never a 500)
            for _ in range(5):
                assert _full(api.http.post("/api/matches", json=BODY))
            played = []
            for x, player in ((0, "p1"), (1, "p2"), (2, "p1")):
                move = {"type": "PlaceMark", "square": {"x": x, "y": 0}}
                response = api.post_action(tic["id"], tokens[player], move)
                if response.status_code == 200:
                    played.append(x)
                    continue
                assert _full(response), response.text
                break
            token = api.http.post(f"/api/matches/{tic['id']}/stream-tokens")
            assert token.status_code == 201 or _full(token)
            # reads keep working
            assert api.view(tic["id"], tokens["p1"])["index"] == len(played)
            listed = api.http.get("/api/matches", params={"limit": 500}).json()["matches"]
            assert {m["id"] for m in listed} >= set(acknowledged)
            kept = disk.free(acknowledged)  # space comes back
            # the writer recovers by itself: the very next writes succeed
            created = api.create("go-fish", 3)
            for x, player in ((0, "p1"), (1, "p2"), (2, "p1"))[len(played) :]:
                move = {"type": "PlaceMark", "square": {"x": x, "y": 0}}
                api.ok(api.post_action(tic["id"], tokens[player], move))
            assert api.view(tic["id"])["index"] == 3
            assert api.match(created["id"])["index"] >= 0
            for match_id in kept:  # nothing acknowledged is lost
                assert api.match(match_id)["id"] == match_id
        finally:
            api.close()
        with sqlite3.connect(database) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
