"""Every installed game, played to the end through the HTTP API, stored exactly as a replay gives it."""

from __future__ import annotations

import random

import orjson
import pytest
from tabletop.games import available, load
from tabletop_fixtures.live_server import Api, LiveServer
from tabletop_server.storage import Store

from tests.server.api.replay import replayed_state


def _play_to_end(api: Api, match_id: str, tokens: dict[str, str], rng: random.Random) -> int:
    """Every seat plays random legal actions from its own view until the match ends."""
    for played in range(2000):
        views = {player: api.view(match_id, token) for player, token in tokens.items()}
        first = next(iter(views.values()))
        if first["status"] == "finished":
            return played
        movers = [player for player, view in views.items() if view["legal_actions"]]
        assert movers, f"nobody can act at {first['index']}"
        player = rng.choice(movers)
        body = {**rng.choice(views[player]["legal_actions"]), "id": f"a{played}"}
        response = api.ok(api.post_action(match_id, tokens[player], body))
        assert response["actions"][0]["id"] == f"a{played}"
        assert response["actions"][0]["player_id"] == player
        assert response["index"] == first["index"] + len(response["actions"])
    raise AssertionError("the match did not end")


SHORT = {"pig": {"target": 20}, "hearts": {"target_score": 1}}
"""Configs that keep a random match short (Hearts: one deal, about 200 actions, not a game to 100)."""


@pytest.mark.parametrize("game", available())
def test_a_whole_match_of_every_game_is_played_through_the_api(
    game: str, server: LiveServer, api: Api
) -> None:
    definition = load(game)
    count = definition.min_players if definition.min_players >= 2 else 2
    match = api.create(game, count, seed=11, config=SHORT.get(game))
    assert match["status"] == "in_progress" and match["game"] == game
    tokens = {seat["player_id"]: api.join(match["id"], seat["player_id"]) for seat in match["seats"]}
    played = _play_to_end(api, match["id"], tokens, random.Random(game))
    final = api.match(match["id"])
    assert played > 0 and final["status"] == "finished" and final["result"] in ("win", "draw")
    log = api.log(match["id"])
    assert [action["index"] for action in log] == list(range(final["index"]))
    assert sum(action["source"] == "user" for action in log) == played

    store: Store = server.app.state.service.store
    replayed, stored = replayed_state(store, match["id"])
    assert orjson.loads(replayed.model_dump_json()) == orjson.loads(stored)
    assert replayed.action_checksum == final["checksum"]
