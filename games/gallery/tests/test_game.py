"""Gallery end to end: bots play it to the end, and the same seed gives the same game."""

import orjson
import pytest
from tabletop import GameEngine
from tabletop.bots import RandomBot, playout
from tabletop.testing import make_game
from tabletop_gallery import definition


def test_the_definition_is_named_after_the_entry_point() -> None:
    assert definition.name == "gallery"


@pytest.mark.parametrize("players", sorted({definition.min_players, 2, definition.max_players}))
def test_random_bots_play_a_game_to_its_end(players: int) -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=7)
    results = list(playout(engine, game, RandomBot(engine, 7), max_actions=1_000))
    final = results[-1].state if results else engine.start(game).state
    assert final.result is not None and final.active_player_ids == []


def _playout_bytes(seed: int) -> list[bytes]:
    engine = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed)
    bot = RandomBot(engine, seed)
    return [orjson.dumps(result.state.model_dump(mode="json")) for result in playout(engine, game, bot)]


@pytest.mark.parametrize("seed", [0, 42, 2**32 - 1])
def test_same_seed_and_actions_give_byte_identical_states(seed: int) -> None:
    assert _playout_bytes(seed) == _playout_bytes(seed)
