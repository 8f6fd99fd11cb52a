"""One undo rule: the view, the event stream, an action's answer and the undo route always agree."""

from __future__ import annotations

import random

import pytest
from tabletop.games import available, load
from tabletop_fixtures.live_server import Api, EventReader, LiveServer, open_stream

SHORT = {"pig": {"target": 20}, "goofspiel": {"cards": 4}}
"""Configs that keep a random match short."""

STEPS = 16
"""Actions played per game (each one also undone and played again when the rule allows it)."""


def _undo(api: Api, match_id: str, token: str) -> tuple[int, dict[str, object]]:
    response = api.http.post(f"/api/matches/{match_id}/undo", headers=api.auth(token))
    return response.status_code, response.json()


def _without_checksum(view: object) -> object:
    assert isinstance(view, dict)
    return {**view, "action_checksum": None}  # the checksum covers the action ids, which differ


def _streamed_can_undo(stream: EventReader, index: int) -> object:
    return stream.until_index(index, timeout=30)[-1].data["can_undo"]


@pytest.mark.parametrize("game", available())
def test_can_undo_is_the_same_in_the_view_the_stream_the_answer_and_the_undo_route(
    game: str, server: LiveServer, api: Api
) -> None:
    definition = load(game)
    count = max(2, definition.min_players)
    match = api.create(game, count, seed=5, config=SHORT.get(game))
    match_id = match["id"]
    tokens = {seat["player_id"]: api.join(match_id, seat["player_id"]) for seat in match["seats"]}
    streams = {player: open_stream(api, match_id, token) for player, token in tokens.items()}
    try:
        for stream in streams.values():
            assert stream.next(timeout=30).event == "snapshot"
        rng = random.Random(game)
        allowed = refused = 0
        for step in range(STEPS):
            views = {player: api.view(match_id, token) for player, token in tokens.items()}
            movers = [player for player, view in views.items() if view["legal_actions"]]
            if not movers:
                break
            player = rng.choice(movers)
            body = rng.choice(views[player]["legal_actions"])
            answer = api.ok(api.post_action(match_id, tokens[player], {**body, "id": f"a{step}"}))
            index = answer["index"]
            for seat, token in tokens.items():
                seen = api.view(match_id, token)["can_undo"]
                assert seen == _streamed_can_undo(streams[seat], index), (step, seat)
                if seat == player:
                    assert seen == answer["can_undo"], (step, body)
            status, undone = _undo(api, match_id, tokens[player])
            if answer["can_undo"]:
                allowed += 1
                assert status == 200, (step, body, undone)
                replayed = api.ok(api.post_action(match_id, tokens[player], {**body, "id": f"b{step}"}))
                assert replayed["index"] == index
                assert _without_checksum(replayed["view"]) == _without_checksum(answer["view"])
                for stream in streams.values():
                    stream.until_index(index, timeout=30)
            else:
                refused += 1
                assert (status, undone["code"]) == (409, "undo-not-allowed"), (step, body)
        assert allowed + refused > 0
        if game in ("tic-tac-toe", "sample"):  # nothing hidden, nothing drawn: each move can be taken back
            assert refused == 0 or answer["status"] == "finished"
        if game == "go-fish":  # every ask shows the asker cards (taken or drawn): never undone
            assert allowed == 0
    finally:
        for stream in streams.values():
            stream.close()


def test_pig_after_a_roll_shows_no_undo_anywhere(server: LiveServer, api: Api) -> None:
    match = api.create("pig", 2, seed=12)
    match_id = match["id"]
    p1 = api.join(match_id, "p1")
    api.join(match_id, "p2")
    stream = open_stream(api, match_id, p1)
    try:
        assert stream.next(timeout=30).event == "snapshot"
        rolled = api.ok(api.post_action(match_id, p1, {"type": "Roll"}))
        assert rolled["can_undo"] is False
        assert api.view(match_id, p1)["can_undo"] is False
        assert _streamed_can_undo(stream, rolled["index"]) is False
        status, refused = _undo(api, match_id, p1)
        assert (status, refused["code"]) == (409, "undo-not-allowed")
    finally:
        stream.close()
