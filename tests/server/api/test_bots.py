"""Bot seats: played by the server as soon as it is their turn, once per turn, to the end."""

from __future__ import annotations

import random
import threading
import time

import orjson
import pytest
from tabletop.games import available, load
from tabletop_fixtures.live_server import Api, LiveServer
from tabletop_server._bot_retries import RETRY_FAULTS, RETRY_SECONDS
from tabletop_server.storage import StorageUnavailableError, Store

from tests.server.api.replay import replayed_state


def _wait(api: Api, match_id: str, done: object, timeout: float = 60) -> dict[str, object]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info: dict[str, object] = api.match(match_id)
        if done(info):  # type: ignore[operator]
            return info
        time.sleep(0.05)
    raise AssertionError(f"match {match_id} did not get there: {api.match(match_id)}")


@pytest.mark.parametrize("game", available())
def test_random_bots_in_every_seat_finish_every_game(server: LiveServer, api: Api, game: str) -> None:
    """Simultaneous groups included: a seat that has acted stays active until the group closes,
    and the runner must move on to the seats that still have a move (goofspiel stalled)."""
    seats = max(2, load(game).min_players)
    match = api.create(game, [{"name": f"Bot {n}", "bot": {"kind": "random"}} for n in range(seats)], seed=5)
    final = _wait(api, match["id"], lambda info: info["status"] == "finished", timeout=120)
    log = api.log(match["id"])
    assert final["index"] == len(log) > 0 and [action["index"] for action in log] == list(range(len(log)))


@pytest.mark.parametrize(
    "bots",
    [({"kind": "random"}, {"kind": "mcts", "iterations": 30}), ({"kind": "mcts", "iterations": 10},) * 2],
)
def test_bot_seats_finish_a_match_by_themselves(
    server: LiveServer, api: Api, bots: tuple[dict[str, object], ...]
) -> None:
    match = api.create("tic-tac-toe", [{"name": "Bot", "bot": bot} for bot in bots], seed=3)
    final = _wait(api, match["id"], lambda info: info["status"] == "finished")
    log = api.actions(match["id"])["actions"]
    assert [action["player_id"] for action in log] == [("p1", "p2")[n % 2] for n in range(len(log))]
    assert final["index"] == len(log) and 5 <= len(log) <= 9
    store: Store = server.app.state.service.store
    replayed, stored = replayed_state(store, match["id"])
    assert orjson.loads(replayed.model_dump_json()) == orjson.loads(stored)


def test_a_bot_plays_a_hidden_information_game_against_a_human(server: LiveServer, api: Api) -> None:
    match = api.create("go-fish", [{"name": "Ann"}, {"name": "Bot", "bot": {"kind": "random"}}], seed=8)
    match_id = match["id"]
    token = api.join(match_id, "p1")
    taken = api.http.post(f"/api/matches/{match_id}/seats/p2")
    assert (taken.status_code, taken.json()["code"]) == (409, "seat-is-bot")
    rng = random.Random(1)
    for _ in range(500):
        info = _wait(
            api, match_id, lambda i: i["status"] == "finished" or "p1" in _active(api, match_id, token)
        )
        if info["status"] == "finished":
            break
        view = api.view(match_id, token)
        api.ok(api.post_action(match_id, token, rng.choice(view["legal_actions"])))
    else:
        raise AssertionError("the match did not end")
    log = api.actions(match_id)["actions"]
    assert {a["player_id"] for a in log if a["source"] == "user"} == {"p1", "p2"}
    store: Store = server.app.state.service.store
    replayed, stored = replayed_state(store, match_id)
    assert orjson.loads(replayed.model_dump_json()) == orjson.loads(stored)


def _active(api: Api, match_id: str, token: str) -> list[str]:
    view = api.view(match_id, token)["view"]
    active: list[str] = view["active_player_ids"]
    return active


def _failing_in_bot_threads(
    monkeypatch: pytest.MonkeyPatch, server: LiveServer, error: Exception, times: int | None
) -> list[int]:
    """Make the service's ``load`` raise ``error`` in the bot runner's threads, ``times`` times
    (None: always); the requests' own loads are untouched. Returns the count of failures made."""
    service = server.app.state.service
    load = service.load
    made = [0]

    def failing(match_id: str) -> object:
        if threading.current_thread().name.startswith("tabletop-bot") and (times is None or made[0] < times):
            made[0] += 1
            raise error
        return load(match_id)

    monkeypatch.setattr(service, "load", failing)
    return made


def test_a_bot_decision_that_meets_a_database_fault_is_tried_again_until_the_bot_moves(
    monkeypatch: pytest.MonkeyPatch, server: LiveServer, api: Api
) -> None:
    """A match whose bot met a fault must not stall: its human players wait for the bot."""
    made = _failing_in_bot_threads(monkeypatch, server, StorageUnavailableError("the database is away"), 4)
    match = api.create("tic-tac-toe", [{"name": "Bot", "bot": {"kind": "random"}}, {"name": "Ann"}], seed=2)
    moved = _wait(api, match["id"], lambda info: info["index"] == 1, timeout=30)
    assert moved["status"] == "in_progress" and made[0] == 4
    assert server.app.state.bots.retries.scheduled == 4
    assert [action["player_id"] for action in api.actions(match["id"])["actions"]] == ["p1"]


def test_a_bot_that_keeps_failing_for_another_reason_gives_up_after_its_retries(
    monkeypatch: pytest.MonkeyPatch, server: LiveServer, api: Api
) -> None:
    made = _failing_in_bot_threads(monkeypatch, server, RuntimeError("a bug in the bot"), None)
    match = api.create("tic-tac-toe", [{"name": "Bot", "bot": {"kind": "random"}}, {"name": "Ann"}], seed=2)
    runner = server.app.state.bots
    deadline = time.monotonic() + 30
    while made[0] < 1 + RETRY_FAULTS or not runner.idle():
        assert time.monotonic() < deadline, f"{made[0]} attempts"
        time.sleep(0.05)
    time.sleep(RETRY_SECONDS * 2 ** (RETRY_FAULTS + 1))  # longer than a further retry's pause
    assert made[0] == 1 + RETRY_FAULTS and runner.retries.scheduled == RETRY_FAULTS
    assert api.match(match["id"])["index"] == 0
