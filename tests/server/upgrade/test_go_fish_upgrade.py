"""A real upgrade, end to end: Go Fish 2.0.0 matches in progress survive the server's restart on 5.0.0.

A server runs the frozen copy of Go Fish 2.0.0 (``tabletop_fixtures.go_fish_2``) and hosts
matches in progress: two plain ones, one forked, one followed by an open event stream, and a
tic-tac-toe match stored under a logic version with no migration. The server is stopped and
started again on the installed games (Go Fish 5.0.0, which declares the 2.0.0 -> 3.0.0,
3.0.0 -> 4.0.0 and 4.0.0 -> 5.0.0 migrations: books record their turn, the stock loses its
shuffled order and the draws become chance points, and the log may hold a loss on time). Every
Go Fish match is migrated when first loaded, continues through the HTTP API to the end, and its
stored state equals a replay of its log from its new base; undo and fork never reach behind the
migration; the stream's client, reconnecting, gets a ``reset`` carrying
5.0.0; the match without a path stays readable and refuses writes with the typed code. On
SQLite and on PostgreSQL (``database_url``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, cast

import orjson
import pytest
from sqlalchemy import create_engine, update
from tabletop import AnyState, GameConfig, GameDefinition, Player
from tabletop.games import load
from tabletop_fixtures.go_fish_2 import definition as go_fish_2
from tabletop_fixtures.live_server import Api, open_stream
from tabletop_fixtures.serving import serving
from tabletop_server.storage import Store, normalize_url
from tabletop_server.storage._tables import matches

Json = Any

INSTALLED = load("go-fish").logic_version
"""The installed Go Fish the matches migrate to."""
NO_PATH_VERSION = "0.9.0"
"""A tic-tac-toe version no migration starts from (as if stored by a long-gone release)."""


@dataclass
class Played:
    """A match the test plays: its id and seat tokens, and how many actions it played after the upgrade."""

    match_id: str
    tokens: dict[str, str]
    after_upgrade: int = 0
    books_seen: list[Json] = field(default_factory=list)


def _play(api: Api, match: Played, moves: int | None, rng: random.Random, **headers: str) -> int:
    """Play up to ``moves`` legal actions (None: to the end), each by the seat on turn; how many."""
    played = 0
    while moves is None or played < moves:
        info = api.match(match.match_id)
        if info["status"] == "finished":
            break
        spectator = api.view(match.match_id)
        (on_turn,) = spectator["view"]["active_player_ids"]
        view = api.view(match.match_id, match.tokens[on_turn])
        assert view["legal_actions"], view
        body = dict(rng.choice(view["legal_actions"]))
        response = api.post_action(match.match_id, match.tokens[on_turn], body, headers=headers)
        api.ok(response)
        played += 1
        assert played < 2_000, "the match did not end"
    return played


def _start(api: Api, seats: int, seed: int) -> Played:
    info = api.create("go-fish", seats, seed=seed)
    tokens = {f"p{n}": api.join(info["id"], f"p{n}") for n in range(1, seats + 1)}
    return Played(info["id"], tokens)


def _replayed_from_base(store: Store, match_id: str) -> tuple[str, str]:
    """(the state a replay of the stored log from the match's base gives, the stored state): an
    independent check, with the installed game's engine and nothing of the server's replay."""
    from tabletop import GameEngine

    row, seats = store.get_match_and_seats(match_id)
    definition = load(row.game)
    game = definition.game_type(
        id=row.id,
        type_id=row.game,
        players=[Player(id=s.player_id, name=s.name, is_human=s.bot is None) for s in seats],
        config=definition.config_type.model_validate(row.config),
        seed=row.seed,
    )
    engine = GameEngine(definition)
    assert row.base_state_json is not None
    state = engine.load_state(row.base_state_json)
    not_submitted = {"source", "created_at", "reveals_info", "metadata", "index", "simultaneous_group_id"}
    for action in store.actions(match_id, after=row.base_index - 1):
        data = orjson.loads(action.json)
        if data["source"] == "user":
            state = engine.run({k: v for k, v in data.items() if k not in not_submitted}, state, game).state
    return state.model_dump_json(), row.state_json


def _pin_version(url: str, match_id: str, version: str) -> None:
    """Store ``match_id`` as created under ``version`` (what an older release wrote)."""
    engine = create_engine(normalize_url(url))
    try:
        with engine.begin() as connection:
            connection.execute(update(matches).where(matches.c.id == match_id).values(logic_version=version))
    finally:
        engine.dispose()


def test_matches_in_progress_survive_the_upgrade_to_the_installed_go_fish(
    migrated_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rng = random.Random(23)
    old_games: dict[str, GameDefinition[AnyState, GameConfig]] = {
        "go-fish": cast("GameDefinition[AnyState, GameConfig]", go_fish_2),
        "tic-tac-toe": load("tic-tac-toe"),
    }
    assert go_fish_2.logic_version == "2.0.0" and INSTALLED == "5.0.0"

    # -- the old server: matches in progress under 2.0.0 ----------------------------------------
    with serving(migrated_url, old_games) as old:
        api = Api(old.url)
        plain = [_start(api, 2, seed=3), _start(api, 4, seed=4)]
        parent = _start(api, 3, seed=5)
        streamed = _start(api, 2, seed=6)
        for match, moves in zip([*plain, parent, streamed], [30, 24, 12, 10], strict=True):
            assert _play(api, match, moves, rng) == moves
        fork = api.ok(
            api.http.post(f"/api/matches/{parent.match_id}/fork", headers=api.auth(parent.tokens["p1"])), 201
        )
        forked = Played(fork["match"]["id"], fork["tokens"])
        assert fork["match"]["logic_version"] == "2.0.0"
        old_books = [p["books"] for p in api.view(plain[0].match_id)["view"]["players"]]
        reader = open_stream(api, streamed.match_id, streamed.tokens["p1"])
        snapshot = reader.next(timeout=30)
        assert (snapshot.event, snapshot.data["logic_version"]) == ("snapshot", "2.0.0")
        ttt = api.create("tic-tac-toe", 2, seed=1)
        ttt_tokens = {p: api.join(ttt["id"], p) for p in ("p1", "p2")}
        ttt_head = api.ok(
            api.post_action(ttt["id"], ttt_tokens["p1"], {"type": "PlaceMark", "square": {"x": 0, "y": 0}})
        )["index"]
        before = {m.match_id: api.match(m.match_id) for m in [*plain, parent, streamed, forked]}
        api.close()
    reader.close()  # the restart drops the stream; its client reconnects with Last-Event-ID
    assert all(isinstance(book, str) for books in old_books for book in books)  # 2.0.0: bare ranks
    _pin_version(migrated_url, ttt["id"], NO_PATH_VERSION)

    # -- what the new code will do with them, reported before and at start ----------------------
    from tabletop_server import GameRegistry
    from tabletop_server._upgrade import outdated_report

    store = Store(migrated_url)
    try:
        report = outdated_report(GameRegistry(), store)
        assert report == [
            f"go-fish 2.0.0: 5 in progress, 0 finished; they migrate to {INSTALLED} when first loaded",
            f"tic-tac-toe {NO_PATH_VERSION}: 1 in progress, 0 finished; they have no migration to "
            f"{load('tic-tac-toe').logic_version}: readable, every write refused",
        ]

        # -- restart on the installed games ---------------------------------------------------------
        with serving(migrated_url) as new:
            assert "stored matches of go-fish 2.0.0: 5 in progress" in capsys.readouterr().out
            api = Api(new.url)
            resumed = open_stream(api, streamed.match_id, streamed.tokens["p1"], last_event_id=snapshot.id)
            reset = resumed.next(timeout=30)
            assert (reset.event, reset.data["logic_version"]) == ("reset", INSTALLED)
            assert all(isinstance(book, dict) for p in reset.data["view"]["players"] for book in p["books"])

            everyone = [*plain, parent, streamed, forked]
            for match in everyone:
                info = api.match(match.match_id)
                head = before[match.match_id]["index"]
                assert (info["logic_version"], info["migrated_from"], info["replay_base"]) == (
                    INSTALLED,
                    "2.0.0",
                    head,
                )
                assert info["index"] == head and info["status"] == "in_progress"
                for token in match.tokens.values():  # undo never crosses the migration
                    refused = api.http.post(f"/api/matches/{match.match_id}/undo", headers=api.auth(token))
                    assert (refused.status_code, refused.json()["code"]) == (409, "before-migration")
                refused = api.http.post(
                    f"/api/matches/{match.match_id}/fork",
                    json={"index": head - 1},
                    headers=api.auth(match.tokens["p1"]),
                )
                assert (refused.status_code, refused.json()["code"]) == (409, "before-migration")
                old_client = api.post_action(
                    match.match_id,
                    match.tokens["p1"],
                    {"type": "Ask"},
                    headers={"X-Tabletop-Logic-Version": "2.0.0"},
                )
                assert (old_client.status_code, old_client.json()["code"]) == (
                    409,
                    "incompatible-logic-version",
                )
                assert api.actions(match.match_id)["index"] == head  # the old log stays readable

            for match in everyone:
                match.after_upgrade = _play(api, match, None, rng, **{"X-Tabletop-Logic-Version": INSTALLED})
                info = api.match(match.match_id)
                assert info["status"] == "finished" and match.after_upgrade > 0
                books = [book for p in api.view(match.match_id)["view"]["players"] for book in p["books"]]
                assert len(books) == 13
                assert all(book["turn"] is None or book["turn"] >= 1 for book in books)
                assert any(book["turn"] is not None for book in books)  # made after the migration
                replayed, stored = _replayed_from_base(store, match.match_id)
                assert orjson.loads(replayed) == orjson.loads(stored)

            updates = resumed.until_index(api.match(streamed.match_id)["index"], timeout=60)
            assert {event.event for event in updates} <= {"update", "reset"} and updates[-1].data[
                "status"
            ] == "finished"
            resumed.close()

            # -- no path: readable, every write refused with the typed code ------------------------
            info = api.match(ttt["id"])
            assert info["logic_version"] == NO_PATH_VERSION and info["migrated_from"] is None
            view = api.view(ttt["id"], ttt_tokens["p2"])
            assert view["index"] == ttt_head and view["legal_actions"] == [] and not view["can_undo"]
            assert len(api.actions(ttt["id"])["actions"]) == ttt_head
            writes = [
                api.post_action(
                    ttt["id"], ttt_tokens["p2"], {"type": "PlaceMark", "square": {"x": 1, "y": 1}}
                ),
                api.http.post(f"/api/matches/{ttt['id']}/undo", headers=api.auth(ttt_tokens["p1"])),
                api.http.post(f"/api/matches/{ttt['id']}/fork", headers=api.auth(ttt_tokens["p1"])),
            ]
            for refused in writes:
                body = refused.json()
                assert (refused.status_code, body["code"]) == (409, "logic-version-unavailable"), body
                assert (
                    NO_PATH_VERSION in body["message"]
                    and load("tic-tac-toe").logic_version in body["message"]
                )
            assert store.get_match(ttt["id"]).head == ttt_head  # nothing changed
            api.close()
    finally:
        store.close()
    played = sum(match.after_upgrade for match in everyone)
    print(f"upgrade figures: {len(everyone)} matches upgraded, {played} actions played after the upgrade")
