"""GameOver: the player who reached the target wins; nobody is active any more."""

import pytest
from tabletop import GameResult
from tabletop.testing import GameHarness
from tabletop_pig.model.config import PigConfig
from tabletop_pig.model.game_state import HydratedPigGameState
from tabletop_pig.state_handlers.game_over import GameOver

Harness = GameHarness[HydratedPigGameState, PigConfig]


@pytest.mark.parametrize("winner", ["p1", "p2"])
def test_enter_makes_the_player_at_the_target_the_winner(harness: Harness, winner: str) -> None:
    ctx = harness.context()
    ctx.state.player(winner).score = 100
    ctx.state.player("p2" if winner == "p1" else "p1").score = 99
    GameOver().enter(ctx)
    assert (ctx.state.result, ctx.state.winning_player_ids) == (GameResult.WIN, [winner])
    assert ctx.state.active_player_ids == []
    assert ctx.turns.current_turn is None


@pytest.mark.parametrize(
    ("scores", "winner"), [((0, 0), None), ((99, 12), None), ((12, 100), "p2"), ((100, 5), "p1")]
)
def test_the_winner_is_whoever_banked_the_target(
    harness: Harness, scores: tuple[int, int], winner: str | None
) -> None:
    state = harness.engine.copy_state(harness.state)
    state.player("p1").score, state.player("p2").score = scores
    assert state.winner(100) == winner


def test_nothing_is_valid_once_the_game_is_over(harness: Harness) -> None:
    assert GameOver().valid_actions_for_player("p1", harness.context()) == []
