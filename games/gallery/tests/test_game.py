"""Gallery end to end: bots play whole games, every invariant holds, the same seed gives the same game."""

import orjson
import pytest
from tabletop import GameEngine
from tabletop.bots import RandomBot, playout
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop_gallery import definition
from tabletop_gallery.model.invariants import invariants


def test_the_definition_is_named_after_the_entry_point() -> None:
    assert definition.name == "gallery"
    assert (definition.min_players, definition.max_players) == (3, 5)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_bots_play_four_rounds_to_the_end_keeping_every_invariant(players: int) -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=7)
    final = None
    for result in playout(engine, game, RandomBot(engine, 7), max_actions=2_000, prng_key=TEST_PRNG_KEY):
        final = result.state
        assert list(invariants(final)) == [], final.action_count
    assert final is not None and final.result is not None and final.active_player_ids == []
    assert final.round_number == 4 and len(final.values) == 4
    assert sum(player.money for player in final.players) == final.money_in_play()
    richest = max(player.money for player in final.players)
    assert final.winning_player_ids == [p.player_id for p in final.players if p.money == richest]
    assert len(final.discard) + len(final.deck) + sum(len(p.hand) for p in final.players) == 70


def _playout_bytes(seed: int) -> list[bytes]:
    engine = GameEngine(definition)
    game = make_game(definition, players=4, seed=seed)
    bot = RandomBot(engine, seed)
    return [
        orjson.dumps(result.state.model_dump(mode="json"))
        for result in playout(engine, game, bot, prng_key=TEST_PRNG_KEY)
    ]


@pytest.mark.parametrize("seed", [0, 42, 2**32 - 1])
def test_same_seed_and_actions_give_byte_identical_states(seed: int) -> None:
    assert _playout_bytes(seed) == _playout_bytes(seed)
