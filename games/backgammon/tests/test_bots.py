"""Bots play Backgammon to the end: random bots, and MCTS (short rollouts scored by the race)."""

from collections.abc import Callable

import pytest
from tabletop import GameEngine, GameResult
from tabletop.bots import Bot, MctsBot, RandomBot, playout
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game
from tabletop_backgammon import definition
from tabletop_backgammon.actions.move import HydratedMove
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.evaluator import evaluate, pips
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState

Harness = GameHarness[HydratedBackgammonGameState, BackgammonConfig]
Place = Callable[..., None]


def test_the_opening_race_is_167_pips_each_and_level(harness: Harness) -> None:
    assert pips(harness.state) == {"p1": 167, "p2": 167}
    assert evaluate(harness.state) == {"p1": 0.5, "p2": 0.5}


def test_the_evaluator_favours_the_player_ahead_in_the_race(harness: Harness, place: Place) -> None:
    place(harness.state, {24: 15}, {24: 15}, dice=(1, 2))  # White 1 pip each, Black 24 each
    assert pips(harness.state) == {"p1": 15, "p2": 360}
    assert evaluate(harness.state)["p1"] > 0.99


@pytest.mark.parametrize("seed", [1, 2])
def test_random_bots_finish_with_a_winner_and_15_checkers_each_throughout(seed: int) -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed)
    final = None
    for result in playout(engine, game, RandomBot(engine, seed), max_actions=5_000, prng_key=TEST_PRNG_KEY):
        final = result.state
        for player in final.players:
            assert sum(player.points) + player.bar + player.off == 15
    assert final is not None and final.result is GameResult.WIN
    (winner,) = final.winning_player_ids
    assert final.player(winner).off == 15


def test_mcts_bears_off_to_win_when_it_can(harness: Harness, place: Place) -> None:
    place(harness.state, {23: 1, 24: 1, 20: 1}, {1: 2, 6: 13}, dice=(5, 6))
    # Legal first steps: 20 off with the 5 or 6 (the farthest); the bot picks one of those.
    bot = MctsBot(harness.engine, iterations=60, seed=1, max_rollout_actions=6)
    choice = bot.choose(harness.state, "p1", harness.game)
    assert isinstance(choice, HydratedMove) and choice.point == 20


@pytest.mark.slow
def test_an_mcts_bot_plays_a_whole_game_against_a_random_one() -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=2, seed=11)
    bots: dict[str, Bot[HydratedBackgammonGameState, BackgammonConfig]] = {
        "p1": MctsBot(engine, iterations=25, seed=11, max_rollout_actions=8),
        "p2": RandomBot(engine, 11),
    }
    final = None
    for result in playout(engine, game, bots, max_actions=5_000, prng_key=TEST_PRNG_KEY):
        final = result.state
    assert final is not None and final.result is GameResult.WIN
