"""Provably fair chance for every game: once a match is over its full log is public, and verify
replays it (hidden bids, hands, passes and dealt cards included) and checks the spectator's log
is its projection. Before the end nobody gets it."""

from __future__ import annotations

import dataclasses
import subprocess
from collections.abc import Mapping
from typing import Any

import pytest
from tabletop.games import available, load
from tabletop_fixtures.live_server import Api, LiveServer
from tabletop_server._fair import MatchRecord, fetch_public_match, verify_match

from tests.server.hosting.play import wait_until_over
from tests.server.hosting.test_fairness import TABLETOP

SHORT = {
    "pig": {"target": 20},
    "hearts": {"target_score": 1},
    "backgammon": {"max_player_turns": 40},
    "goofspiel": {"cards": 5},
    "hex": {"board_size": 4},
}
"""Configs that keep a bots' match short."""

HIDDEN = {"gallery", "go-fish", "goofspiel", "hearts"}
"""The games whose log hides parts of actions from spectators."""

sqlite_only = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def _bots_finish(api: Api, game: str, seed: int = 5) -> str:
    seats = max(2, load(game).min_players)
    bots: list[Mapping[str, object]] = [{"name": f"Bot {n}", "bot": {"kind": "random"}} for n in range(seats)]
    match = api.create(game, bots, seed=seed, config=SHORT.get(game))
    assert wait_until_over(api, match["id"])["status"] == "finished"
    return str(match["id"])


@sqlite_only
@pytest.mark.parametrize("game", available())
def test_every_game_verifies_after_bots_play_it_to_the_end(api: Api, server: LiveServer, game: str) -> None:
    match_id = _bots_finish(api, game)
    record = fetch_public_match(server.url, match_id)
    assert record.full_log is not None and len(record.full_log) == len(record.log) > 0
    verdict = verify_match(record)
    assert verdict.problems == []
    assert verdict.actions == len(record.log)
    assert (verdict.hidden > 0) == (game in HIDDEN)  # the hidden parts were checked in full
    assert (record.full_log != record.log) == (game in HIDDEN)
    checked = api.ok(api.http.get(f"/api/matches/{match_id}/verification"))  # the UI's verify link
    assert checked == {
        "verified": True,
        "problems": [],
        "actions": verdict.actions,
        "outcomes": verdict.chance,
        "hidden": verdict.hidden,
    }


@sqlite_only
def test_the_cli_verifies_a_hidden_information_match(api: Api, server: LiveServer) -> None:
    match_id = _bots_finish(api, "goofspiel")
    done = subprocess.run(
        [str(TABLETOP), "verify", match_id, "--server", server.url],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert f"verified {match_id}" in done.stdout and "with parts hidden during the match" in done.stdout


def _forged(record: MatchRecord, index: int, field: str, value: object) -> MatchRecord:
    assert record.full_log is not None
    full: Any = [dict(action) for action in record.full_log]  # type: ignore[arg-type]
    full[index][field] = value
    return dataclasses.replace(record, full_log=full)


@sqlite_only
def test_a_changed_hidden_bid_fails_where_the_replay_reveals_it(api: Api, server: LiveServer) -> None:
    record = fetch_public_match(server.url, _bots_finish(api, "goofspiel"))
    full: Any = record.full_log
    bid = next(n for n, action in enumerate(full) if action["type"] == "Bid")
    assert record.log[bid]["card"] is None  # type: ignore[index,call-overload]  # hidden from spectators
    other = full[bid]["card"] % 5 + 1  # another card of the five, all in hand in the first round
    reveal = next(n for n, action in enumerate(full) if action["type"] == "Reveal" and n > bid)
    problems = verify_match(_forged(record, bid, "card", other)).problems
    player = full[bid]["player_id"]
    assert problems[0].startswith(  # the Reveal shows the bid the replay of the forged log does not make
        f"action {reveal} (Reveal) of the full log differs from the replay with the revealed key: "
        f"metadata.bids.{player} is {full[bid]['card']} in the full log, {other} in the replay"
    ), problems


@sqlite_only
def test_a_changed_dealt_card_fails_at_that_deal(api: Api, server: LiveServer) -> None:
    record = fetch_public_match(server.url, _bots_finish(api, "hearts"))
    full: Any = record.full_log
    first, second = [n for n, action in enumerate(full) if action["type"] == "DealCard"][:2]
    assert record.log[first]["outcome"] is None  # type: ignore[index,call-overload]  # face down
    forged = _forged(record, first, "outcome", full[second]["outcome"])  # the next card dealt
    problems = verify_match(forged).problems
    assert len(problems) == 1 and problems[0].startswith(
        f"action {first} (DealCard) of the full log differs from the replay with the revealed key: outcome."
    ), problems
    claimed, drawn = full[second]["outcome"], full[first]["outcome"]
    differing = [part for part in ("rank", "suit") if claimed[part] != drawn[part]]
    assert differing  # two cards of one deck
    for part in differing:
        assert (
            f'outcome.{part} is "{claimed[part]}" in the full log, "{drawn[part]}" in the replay'
            in problems[0]
        )


@sqlite_only
def test_a_spectator_log_that_is_not_the_full_logs_projection_fails(api: Api, server: LiveServer) -> None:
    record = fetch_public_match(server.url, _bots_finish(api, "go-fish"))
    shown: Any = [dict(action) for action in record.log]  # type: ignore[arg-type]
    asked = next(n for n, action in enumerate(shown) if action["type"] == "Ask")
    shown[asked]["player_id"] = "p2" if shown[asked]["player_id"] == "p1" else "p1"
    problems = verify_match(dataclasses.replace(record, log=shown)).problems
    seen: Any = record.log[asked]
    assert problems == [
        f"action {asked} (Ask) of the spectator log differs from the full log's projection: "
        f'player_id is "{shown[asked]["player_id"]}" in the spectator log, '
        f'"{seen["player_id"]}" in the projection'
    ]


def test_the_full_log_is_refused_before_the_end_to_seats_and_spectators(api: Api, server: LiveServer) -> None:
    match = api.create("goofspiel", 2, seed=4, config={"cards": 5})
    match_id = match["id"]
    tokens = {p: api.join(match_id, p) for p in ("p1", "p2")}
    bid = api.view(match_id, tokens["p1"])["legal_actions"][0]
    api.ok(api.post_action(match_id, tokens["p1"], bid))  # a sealed bid the log now holds
    for token in (None, tokens["p1"], tokens["p2"], match["creator_token"]):
        refused = api.http.get(f"/api/matches/{match_id}/full-log", headers=api.auth(token))
        assert refused.status_code == 409
        assert refused.json() == {
            "code": "not-over",
            "message": f"match {match_id} is in_progress: its full log is served once it is "
            "finished or ended",
            "path": None,
        }
    missing = api.http.get("/api/matches/m_nope/full-log")
    assert (missing.status_code, missing.json()["code"]) == (404, "unknown-match")


def test_an_ended_match_serves_its_full_log_and_verifies(api: Api, server: LiveServer) -> None:
    created = api.create("goofspiel", 2, seed=6, config={"cards": 5})
    match_id = created["id"]
    tokens = {p: api.join(match_id, p) for p in ("p1", "p2")}
    for player in ("p1", "p2", "p1"):  # a round revealed, then a sealed bid in the next
        api.ok(
            api.post_action(match_id, tokens[player], api.view(match_id, tokens[player])["legal_actions"][0])
        )
    api.ok(api.http.post(f"/api/matches/{match_id}/end", headers=api.auth(created["creator_token"])))
    record = fetch_public_match(server.url, match_id)
    full: Any = record.full_log
    sealed = full[-1]
    assert (sealed["type"], sealed["card"] is not None, record.log[-1]["card"]) == ("Bid", True, None)  # type: ignore[index,call-overload]
    verdict = verify_match(record)
    assert (
        verdict.problems == [] and verdict.hidden == sum(1 for action in full if action["type"] == "Bid") == 3
    )
