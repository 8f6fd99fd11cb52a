"""Action keys: what matches one move across the worlds of a search, remembered per search."""

from __future__ import annotations

import pytest
from tabletop import UNKEYED, AnyState, GameConfig, GameEngine
from tabletop.bots import RandomBot, action_key, playout
from tabletop.bots._positions import ActionKeys
from tabletop.games import load
from tabletop.testing import make_game

GAMES = ["sample", "tic-tac-toe", "go-fish", "goofspiel", "pig"]


@pytest.mark.parametrize("name", GAMES)
def test_remembered_keys_are_the_action_keys_of_every_legal_action(name: str) -> None:
    definition = load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=4)
    keys = ActionKeys()
    checked = 0
    for result in playout(engine, game, RandomBot(engine, 4), prng_key=UNKEYED):
        for seat in game.players:
            for action in engine.legal_actions(result.state, seat.id, game):
                expected = action_key(action)
                assert keys(action) == expected
                assert keys(action) == expected  # the second time from memory (if remembered)
                checked += 1
    assert checked > 0  # every game has legal actions along the way


def test_actions_that_differ_in_a_payload_field_get_different_keys() -> None:
    definition = load("go-fish")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=3, seed=1)
    state = engine.start(game, prng_key=UNKEYED).state
    player = state.active_player_ids[0]
    legal = engine.legal_actions(state, player, game)
    keys = ActionKeys()
    assert len({keys(action) for action in legal}) == len(legal) > 1
    renamed = legal[0].with_id("another-id")  # the envelope is not part of the key
    assert keys(renamed) == keys(legal[0])
