"""PlayerTurn: entering rolls the dice; steps stay until the dice are used; the limit ends it."""

from tabletop import GameEngine, GameResult
from tabletop.bots import RandomBot, playout
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game
from tabletop_backgammon import definition
from tabletop_backgammon.actions.roll_dice import HydratedRollDice
from tabletop_backgammon.model.config import BackgammonConfig
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState
from tabletop_backgammon.state_handlers.player_turn import PlayerTurn

Harness = GameHarness[HydratedBackgammonGameState, BackgammonConfig]


def test_enter_queues_the_roll(harness: Harness) -> None:
    ctx = harness.context()
    PlayerTurn().enter(ctx)
    (queued,) = ctx.queue
    assert isinstance(queued, HydratedRollDice) and queued.source == "system"


def test_players_move_or_pass_and_never_roll_themselves(harness: Harness) -> None:
    assert PlayerTurn().valid_actions_for_player("p1", harness.context()) == ["Move", "Pass"]


def test_the_game_is_a_draw_once_the_turn_limit_is_passed() -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=2, seed=5, config=BackgammonConfig(max_player_turns=10))
    final = None
    for result in playout(engine, game, RandomBot(engine, 5), max_actions=500, prng_key=TEST_PRNG_KEY):
        final = result.state
    assert final is not None and final.result is GameResult.DRAW
    assert final.turns == 11 and final.returns() == [0.0, 0.0]
