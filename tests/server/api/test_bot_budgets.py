"""Bot work is bounded and fair: search bots cannot starve other matches, and the queue is bounded.

Two go-fish matches of six MCTS bots at 5,000 iterations each once held the server's bot threads
for tens of minutes: a human playing a random bot elsewhere got no answer. Now every decision is
a turn of one queue (one decision per match, then the next match), searches run in a process
pool under a time budget, and new bot matches are refused while the queue is full.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from functools import partial

from tabletop_fixtures.live_server import Api, LiveServer, live_server

HEAVY: list[Mapping[str, object]] = [
    {"name": f"Bot {n}", "bot": {"kind": "mcts", "iterations": 5000}} for n in range(6)
]
"""A go-fish match of six search bots at the largest budget a client may ask for."""

BUDGET = {"bot_decision_seconds": 0.3}


def _until(what: Callable[[], bool], message: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if what():
            return
        time.sleep(0.05)
    raise AssertionError(message)


@contextmanager
def _client(server: LiveServer) -> Iterator[Api]:
    api = Api(server.url)
    try:
        yield api
    finally:
        api.close()


def _answered(api: Api, match_id: str, index: int) -> bool:
    info = api.match(match_id)
    return bool(info["index"] >= index + 2 or info["status"] != "in_progress")


def _play_against_the_random_bot(api: Api, moves: int) -> None:
    """Play ``moves`` human moves of tic-tac-toe, each answered by the random bot."""
    match = api.create("tic-tac-toe", [{"name": "Ann"}, {"name": "Rob", "bot": {"kind": "random"}}], seed=4)
    match_id = match["id"]
    token = api.join(match_id, "p1")
    for _ in range(moves):
        view = api.view(match_id, token)
        if view["status"] != "in_progress":
            break
        index = view["index"]
        api.ok(api.post_action(match_id, token, view["legal_actions"][0]))
        _until(partial(_answered, api, match_id, index), "the random bot did not answer in time")


def _progressed(api: Api, match_id: str, index: int) -> bool:
    return bool(api.match(match_id)["index"] > index)


def _check_fairness(api: Api, heavy: list[str]) -> None:
    start = {match_id: api.match(match_id)["index"] for match_id in heavy}
    _play_against_the_random_bot(api, moves=3)
    for match_id in heavy:  # they take turns, too: each still progresses
        _until(partial(_progressed, api, match_id, start[match_id]), f"{match_id} stalled")
    assert all(api.match(match_id)["status"] == "in_progress" for match_id in heavy)


def test_a_random_bot_answers_while_two_all_mcts_matches_play(migrated_url: str) -> None:
    with live_server(migrated_url, **BUDGET) as server, _client(server) as api:
        heavy = [api.create("go-fish", HEAVY, seed=n)["id"] for n in (1, 2)]
        _check_fairness(api, heavy)


def test_bots_resume_after_a_restart_under_the_same_budgets(migrated_url: str) -> None:
    with live_server(migrated_url, **BUDGET) as server, _client(server) as api:
        heavy = [api.create("go-fish", HEAVY, seed=n)["id"] for n in (1, 2)]
        _until(lambda: all(api.match(m)["index"] > 1 for m in heavy), "the search bots did not start")
    with live_server(migrated_url, **BUDGET) as server, _client(server) as api:
        _check_fairness(api, heavy)


def test_a_full_bot_queue_refuses_new_bot_matches_and_nothing_else(migrated_url: str) -> None:
    settings = {"bot_queue_size": 1, **BUDGET}
    with live_server(migrated_url, **settings) as server, _client(server) as api:
        busy = api.create("go-fish", HEAVY, seed=1)["id"]  # its bots always have a decision pending
        refused = api.http.post("/api/matches", json={"game": "tic-tac-toe", "seats": [{}, {"bot": {}}]})
        assert refused.status_code == 503
        assert refused.json() == {
            "code": "bots-busy",
            "message": "the server's bots are busy: try again later",
            "path": None,
        }
        assert api.http.post(f"/api/matches/{busy}/fork", json={}).json()["code"] == "bots-busy"
        listed = api.ok(api.http.get("/api/matches"))["matches"]
        assert [match["id"] for match in listed] == [busy]  # nothing was created
        humans = api.create("tic-tac-toe", [{"name": "Ann"}, {"name": "Bob"}])  # no bots: accepted
        assert humans["status"] == "in_progress"


def test_without_bot_processes_the_bots_search_in_the_server_under_the_same_budgets(
    migrated_url: str,
) -> None:
    settings = {"bot_processes": 0, "bot_max_iterations": 20, **BUDGET}
    with live_server(migrated_url, **settings) as server, _client(server) as api:
        seats: list[Mapping[str, object]] = [
            {"name": "X", "bot": {"kind": "mcts", "iterations": 5000}},
            {"name": "O", "bot": {"kind": "mcts"}},
        ]
        match_id = api.create("tic-tac-toe", seats, seed=9)["id"]
        _until(lambda: api.match(match_id)["status"] == "finished", "the bots did not finish")
        runner = server.app.state.bots
        assert runner._pool is None  # no process was started
        _until(runner.idle, "the bot queue did not empty")
        assert runner.depth() == 0
