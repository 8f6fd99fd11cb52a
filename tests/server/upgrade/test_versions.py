"""How a server treats matches stored under another logic version than its game's.

A rolling upgrade (an old and a new worker on one database), a game that keeps a frozen copy of
its previous version, a migration that fails, and the commands that list outdated matches and
record rehearsals. Each on SQLite and PostgreSQL (``migrated_url``).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, cast

import pytest
from tabletop import AnyState, GameConfig, GameDefinition, Migration
from tabletop._cli import main
from tabletop.games import load
from tabletop.versions import Document, load_rehearsal, play_rehearsal
from tabletop_fixtures.go_fish_2 import definition as go_fish_2
from tabletop_fixtures.live_server import Api, open_stream
from tabletop_fixtures.serving import serving
from tabletop_server import InProcessHub
from tabletop_server.storage import Store

INSTALLED = load("go-fish").logic_version
"""The installed Go Fish, which 2.0.0 matches migrate to."""

Json = Any
Definition = GameDefinition[AnyState, GameConfig]
OLD: dict[str, Definition] = {"go-fish": cast(Definition, go_fish_2)}


def _release(**changes: object) -> dict[str, Definition]:
    """The installed Go Fish with some definition arguments changed (another release of it)."""
    installed = load("go-fish")
    arguments: dict[str, object] = {
        "name": installed.name,
        "state_type": installed.state_type,
        "config_type": installed.config_type,
        "initial_state": installed.initial_state,
        "handlers": installed.handlers,
        "actions": installed.actions,
        "setup": installed.setup,
        "min_players": installed.min_players,
        "max_players": installed.max_players,
        "logic_version": installed.logic_version,
        "determinizer": installed.determinizer,
        "invariants": installed.invariants,
        "migrations": installed.migrations,
        **changes,
    }
    return {"go-fish": GameDefinition(**arguments)}  # type: ignore[arg-type, type-var]


def _match_in_progress(api: Api, moves: int, seed: int) -> tuple[str, dict[str, str]]:
    """A two-seat Go Fish match with at least ``moves`` legal actions played and a book on the
    table; its id and seat tokens."""
    match_id = api.create("go-fish", 2, seed=seed)["id"]
    tokens = {p: api.join(match_id, p) for p in ("p1", "p2")}
    _play(api, match_id, tokens, moves, until_book=True)
    assert api.match(match_id)["status"] == "in_progress"
    return match_id, tokens


def _play(
    api: Api,
    match_id: str,
    tokens: dict[str, str],
    moves: int | None,
    *,
    until_book: bool = False,
    headers: dict[str, str] | None = None,
) -> int:
    """Play ``moves`` legal actions (None: to the end; ``until_book``: at least until a book is
    on the table, so the state reads differently under 2.0.0 and 3.0.0); how many."""
    rng = random.Random(7)
    played = 0
    while moves is None or played < moves or until_book:
        spectator = api.view(match_id)
        if spectator["status"] == "finished":
            break
        if until_book and played >= (moves or 0) and any(p["books"] for p in spectator["view"]["players"]):
            break
        (on_turn,) = spectator["view"]["active_player_ids"]
        legal = api.view(match_id, tokens[on_turn])["legal_actions"]
        api.ok(api.post_action(match_id, tokens[on_turn], dict(rng.choice(legal)), headers=headers))
        played += 1
        assert played < 2_000
    return played


def test_a_rolling_upgrade_ends_the_old_workers_stream_and_the_reconnection_gets_a_reset(
    migrated_url: str,
) -> None:
    shared = InProcessHub() if migrated_url.startswith("sqlite") else None  # PostgreSQL: LISTEN/NOTIFY
    with serving(migrated_url, OLD, hub=shared) as old, serving(migrated_url, hub=shared) as new:
        old_api, new_api = Api(old.url), Api(new.url)
        match_id, tokens = _match_in_progress(old_api, 6, seed=2)
        reader = open_stream(old_api, match_id, tokens["p1"])
        snapshot = reader.next(timeout=30)
        assert (snapshot.event, snapshot.data["logic_version"]) == ("snapshot", "2.0.0")

        assert new_api.match(match_id)["logic_version"] == INSTALLED  # the new worker migrates it
        assert reader._thread is not None
        reader._thread.join(timeout=60)  # the old worker cannot show INSTALLED: it ends the stream
        assert not reader._thread.is_alive()
        refused = old_api.post_action(match_id, tokens["p1"], {"type": "Ask"})
        assert (refused.status_code, refused.json()["code"]) == (409, "logic-version-unavailable")
        assert INSTALLED in refused.json()["message"] and "2.0.0" in refused.json()["message"]

        resumed = open_stream(new_api, match_id, tokens["p1"], last_event_id=snapshot.id)
        reset = resumed.next(timeout=30)
        assert snapshot.id is not None
        assert (reset.event, reset.id, reset.data["logic_version"]) == ("reset", snapshot.id, INSTALLED)
        played = _play(new_api, match_id, tokens, 3)
        assert resumed.until_index(snapshot.id + 1 + played, timeout=60)[-1].event == "update"
        for client in (reader, resumed):
            client.close()
        old_api.close()
        new_api.close()


def test_a_frozen_copy_runs_its_matches_to_the_end_under_their_own_rules(migrated_url: str) -> None:
    with serving(migrated_url, OLD) as old:
        api = Api(old.url)
        match_id, tokens = _match_in_progress(api, 20, seed=4)
        api.close()
    keeps_2 = _release(frozen_versions=[go_fish_2])
    with serving(migrated_url, keeps_2) as new:
        api = Api(new.url)
        assert api.match(match_id)["logic_version"] == "2.0.0"
        newer_client = api.post_action(
            match_id, tokens["p1"], {"type": "Ask"}, headers={"X-Tabletop-Logic-Version": INSTALLED}
        )
        assert (newer_client.status_code, newer_client.json()["code"]) == (409, "incompatible-logic-version")
        assert _play(api, match_id, tokens, None, headers={"X-Tabletop-Logic-Version": "2.0.0"}) > 0
        info = api.match(match_id)
        assert (info["status"], info["logic_version"], info["migrated_from"]) == ("finished", "2.0.0", None)
        books = [book for p in api.view(match_id)["view"]["players"] for book in p["books"]]
        assert len(books) == 13 and all(isinstance(book, str) for book in books)  # 2.0.0's bare ranks
        fresh = api.create("go-fish", 2, seed=5)  # new matches start on the installed version
        assert fresh["logic_version"] == INSTALLED
        api.close()


def test_a_failing_migration_changes_nothing_and_refuses_writes_with_its_code(migrated_url: str) -> None:
    with serving(migrated_url, OLD) as old:
        api = Api(old.url)
        match_id, tokens = _match_in_progress(api, 8, seed=6)
        api.close()
    store = Store(migrated_url)
    try:
        before = store.get_match(match_id)

        def broken(state: Document) -> Document:
            raise KeyError("players")

        failing = _release(
            migrations=[Migration("2.0.0", "3.0.0", state=broken), *load("go-fish").migrations[1:]]
        )
        with serving(migrated_url, failing) as new:
            api = Api(new.url)
            for response in (
                api.post_action(match_id, tokens["p1"], {"type": "Ask"}),
                api.http.get(f"/api/matches/{match_id}/view", headers=api.auth(tokens["p1"])),
            ):
                body = response.json()
                assert (response.status_code, body["code"]) == (409, "migration-failed"), body
                assert "2.0.0 -> 3.0.0" in body["message"] and "KeyError" in body["message"]
            assert api.match(match_id)["logic_version"] == "2.0.0"  # the metadata stays readable
            api.close()
        after = store.get_match(match_id)
        assert (after.revision, after.logic_version, after.state_json) == (
            before.revision,
            "2.0.0",
            before.state_json,
        )
    finally:
        store.close()


def test_the_commands_list_outdated_matches_and_record_rehearsals(
    migrated_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with serving(migrated_url, OLD) as old:
        api = Api(old.url)
        match_id, _ = _match_in_progress(api, 15, seed=8)
        api.close()
    capsys.readouterr()
    assert main(["db", "matches", "--outdated", "--db", migrated_url]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0].split("\t") == ["match", "game", "logic_version", "status", "actions", "upgrade"]
    row = next(line.split("\t") for line in listed if line.startswith(match_id))
    assert row[1:4] == ["go-fish", "2.0.0", "in_progress"] and row[5] == "migrates"
    assert main(["db", "matches", "--db", migrated_url]) == 0
    assert "go-fish\t2.0.0\tin_progress\t1\tmigrates" in capsys.readouterr().out.splitlines()
    assert main(["db", "matches", "--db", f"sqlite:///{tmp_path / 'empty.sqlite3'}"]) == 1
    assert "tabletop db upgrade" in capsys.readouterr().err  # it never changes the schema itself

    assert (
        main(
            [
                "rehearsal",
                "record",
                match_id,
                "--name",
                "from-the-db",
                "--db",
                migrated_url,
                "--out",
                str(tmp_path),
            ]
        )
        == 0
    )
    path = tmp_path / "2.0.0" / "from-the-db.json"
    assert f"wrote {path}" in capsys.readouterr().out
    rehearsal = load_rehearsal(path)
    assert (rehearsal.game, rehearsal.logic_version, rehearsal.match["id"]) == ("go-fish", "2.0.0", match_id)
    report = play_rehearsal(rehearsal, load("go-fish"))
    assert report.to_version == INSTALLED and report.actions_played > 0

    store = Store(migrated_url)  # the recording read the match and changed nothing
    try:
        assert store.get_match(match_id).logic_version == "2.0.0"
    finally:
        store.close()
    assert main(["rehearsal", "record", "m_nothing", "--name", "x", "--db", migrated_url]) == 1
    assert "m_nothing" in capsys.readouterr().err
