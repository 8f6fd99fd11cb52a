"""Two worker processes on one PostgreSQL: load, racing clients, a killed worker, a restarted database.

Every test starts ``tabletop serve`` subprocesses on loopback ports against a real PostgreSQL,
plays matches through both workers, follows each match's events on a worker, then checks that
every acknowledged action is stored exactly once, every state equals a replay of its log from
the seed, and every stream delivered every event in order.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import orjson
import pytest
from tabletop_fixtures.live_server import Api, EventReader
from tabletop_fixtures.postgres import PostgresServer, find_binaries, start_postgres
from tabletop_server import Settings
from tabletop_server._api_models import CreateMatch
from tabletop_server._lobby import create
from tabletop_server._play import submit
from tabletop_server._registry import GameRegistry
from tabletop_server._service import MatchService
from tabletop_server._submission import parse_body
from tabletop_server.events import InProcessHub
from tabletop_server.storage import Store, upgrade

from tests.server.scale.workers import Player, check_match, check_stream, start_workers, stream

GAMES = ("tic-tac-toe", "go-fish")


@pytest.fixture
def database(postgres_url: str) -> str:
    """A fresh, migrated database on the session's PostgreSQL."""
    upgrade(postgres_url)
    return postgres_url


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test alone (it gets restarted)."""
    binaries = find_binaries()
    if binaries is None:
        pytest.skip("initdb/pg_ctl not found (install postgresql)")
    server = start_postgres(binaries)
    try:
        yield server
    finally:
        server.stop()


CHESS = {"control": {"type": "chess", "main_seconds": 3600}, "policy": {"on_timeout": "forfeit"}}
"""A clock that never runs out in a test: a clocked match's writes carry its clock."""


def _matches(api: Api, count: int, seed: int, *, clocked: bool = False) -> list[tuple[str, dict[str, str]]]:
    """``count`` matches, both seats taken (with ``clocked``, every other pair has a chess clock)."""
    made = []
    for n in range(count):
        body: dict[str, object] = {"game": GAMES[n % 2], "seats": [{"name": "One"}, {"name": "Two"}]}
        body["seed"] = seed + n
        if clocked and n % 4 >= 2:
            body["clock"] = CHESS
        match = api.ok(api.http.post("/api/matches", json=body), 201)
        tokens = {player: api.join(match["id"], player) for player in ("p1", "p2")}
        made.append((match["id"], tokens))
    return made


def _play(players: list[Player], steps: int, seed: int, stop: threading.Event | None = None) -> None:
    rng = random.Random(seed)
    try:
        for _ in range(steps):
            if stop is not None and stop.is_set():
                return
            live = [player for player in players if player.step(rng)]
            if not live:
                return
    finally:
        for player in players:
            player.close()


def _drive(groups: list[list[Player]], steps: int, threads: int, stop: threading.Event | None = None) -> None:
    """Every player in a thread of its own (the racing ones, first in ``groups``, at once)."""
    players = [player for group in groups for player in group]
    with ThreadPoolExecutor(threads) as pool:
        futures = [pool.submit(_play, [player], steps, n, stop) for n, player in enumerate(players)]
        for future in futures:
            future.result()


def _verify(url: str, matches: list[tuple[str, dict[str, str]]], groups: list[list[Player]]) -> int:
    total = 0
    with Store(url) as store:
        for (match_id, _), group in zip(matches, groups, strict=True):
            acknowledged = [action_id for player in group for action_id in player.acknowledged]
            total += check_match(store, match_id, acknowledged)
    return total


def _heads(url: str, matches: list[tuple[str, dict[str, str]]]) -> list[int]:
    with Store(url) as store:
        return [store.get_match(match_id).head for match_id, _ in matches]


def test_fifty_matches_through_two_workers_lose_duplicate_and_reorder_nothing(
    database: str, tmp_path: Path
) -> None:
    workers = start_workers(database, 2, tmp_path)
    a, b = (worker.url for worker in workers)
    api = Api(a)
    readers: list[EventReader] = []
    try:
        matches = _matches(api, 50, seed=100, clocked=True)
        # each match's first seat follows its events on worker b; its spectator on worker a
        # (a clocked match's writes notify the other worker in the statement that writes the clock)
        readers = [stream(b, match_id, tokens["p1"]) for match_id, tokens in matches]
        readers += [stream(a, match_id, None) for match_id, _ in matches[:10]]
        groups = []
        for n, (match_id, tokens) in enumerate(matches):
            racing = 4 if n < 5 else 1  # five matches have four clients racing for every move
            groups.append(
                [Player(match_id, tokens, [a, b] if k % 2 else [b, a], seed=k) for k in range(racing)]
            )
        _drive(groups, steps=12, threads=24)
        heads = _heads(database, matches)
        assert _verify(database, matches, groups) == sum(heads)
        acknowledged = sum(len(player.acknowledged) for group in groups for player in group)
        assert acknowledged >= 300
        raced = [code for group in groups[:5] for player in group for _, code in player.errors]
        assert raced, "the racing clients never collided"
        for reader, head in zip(readers, heads + heads[:10], strict=True):
            check_stream(reader, head)
    finally:
        for reader in readers:
            reader.close()
        api.close()
        for worker in workers:
            worker.stop()


@pytest.mark.slow
def test_a_killed_worker_loses_nothing_acknowledged_and_the_survivor_keeps_serving(
    database: str, tmp_path: Path
) -> None:
    workers = start_workers(database, 2, tmp_path)
    doomed, survivor = workers
    api = Api(survivor.url)
    readers: list[EventReader] = []
    try:
        matches = _matches(api, 20, seed=300)
        readers = [stream(survivor.url, match_id, tokens["p2"]) for match_id, tokens in matches]
        groups = [
            [Player(match_id, tokens, [doomed.url, survivor.url], seed=k) for k in range(2)]
            for match_id, tokens in matches
        ]
        killer = threading.Timer(1.5, doomed.kill)
        killer.start()
        _drive(groups, steps=25, threads=20)
        killer.join()
        assert doomed.process.returncode == -9
        heads = _heads(database, matches)
        assert _verify(database, matches, groups) == sum(heads)
        for reader, head in zip(readers, heads, strict=True):
            check_stream(reader, head)
        # the survivor still serves: a new match plays through it alone
        ((match_id, tokens),) = _matches(api, 1, seed=999)
        after = Player(match_id, tokens, [survivor.url], seed=1)
        _play([after], steps=5, seed=1)
        assert len(after.acknowledged) >= 3
    finally:
        for reader in readers:
            reader.close()
        api.close()
        for worker in workers:
            worker.stop()


@pytest.mark.slow
def test_a_restarted_database_gives_clean_errors_and_no_corrupted_match(
    own_postgres: PostgresServer, tmp_path: Path
) -> None:
    url = own_postgres.create_database()
    upgrade(url)
    workers = start_workers(url, 2, tmp_path)
    a, b = (worker.url for worker in workers)
    api = Api(a)
    readers: list[EventReader] = []
    stop = threading.Event()
    try:
        matches = _matches(api, 12, seed=500)
        readers = [stream(b, match_id, tokens["p1"]) for match_id, tokens in matches]
        groups = [[Player(match_id, tokens, [a, b], seed=0)] for match_id, tokens in matches]

        restarted: list[int] = []

        def restart() -> None:
            time.sleep(1.0)
            own_postgres.restart()
            restarted.append(sum(_heads(url, matches)))

        restarter = threading.Thread(target=restart)
        restarter.start()
        _drive(groups, steps=25, threads=12, stop=stop)
        restarter.join()
        _drive(groups, steps=3, threads=12)  # after the restart every worker serves again
        errors = {error for group in groups for player in group for error in player.errors}
        assert errors <= {(503, "storage-unavailable"), (403, "player-not-active"), (409, "game-over")}
        heads = _heads(url, matches)
        assert sum(heads) > restarted[0]  # play went on after the restart
        assert _verify(url, matches, groups) == sum(heads)
        for reader, head in zip(readers, heads, strict=True):
            check_stream(reader, head, timeout=30)
    finally:
        stop.set()
        for reader in readers:
            reader.close()
        api.close()
        for worker in workers:
            worker.stop()


def test_a_bot_turn_nobody_took_up_is_played_once_by_another_worker(database: str, tmp_path: Path) -> None:
    """A writer without a bot runner (as if its worker died right after the commit) announces the
    human's moves; the two workers hear it, and exactly one bot move follows each."""
    workers = start_workers(database, 2, tmp_path)
    store = Store(database)
    service = MatchService(Settings(db=database, ui_dir=None), GameRegistry(), store, InProcessHub())
    rng = random.Random(4)
    try:
        for seed in range(2):
            seats = [{"name": "Ann"}, {"name": "Bot", "bot": {"kind": "random"}}]
            match_id = str(
                create(
                    service, CreateMatch.model_validate({"game": "tic-tac-toe", "seats": seats, "seed": seed})
                )["id"]
            )
            while service.load(match_id).row.status == "in_progress":
                view = service.view(match_id, "p1")
                assert view["legal_actions"], "the bot did not move"
                body = rng.choice(view["legal_actions"])  # type: ignore[arg-type]
                raw = orjson.dumps(body)
                submission = parse_body(
                    raw, action_type="PlaceMark", match_id=match_id, player_id="p1", if_match=None
                )
                response, _ = submit(service, match_id, "p1", "PlaceMark", submission)
                head = response["index"]
                deadline = time.monotonic() + 15
                while response["status"] == "in_progress" and service.load(match_id).row.head == head:
                    assert time.monotonic() < deadline, "no worker took up the bot's turn"
                    time.sleep(0.05)
            time.sleep(1.0)  # a second bot move, if one were coming, would have come by now
            log = store.actions(match_id)
            assert [row.player_id for row in log] == [("p1", "p2")[n % 2] for n in range(len(log))]
            check_match(store, match_id, [])
    finally:
        store.close()
        for worker in workers:
            worker.stop()
