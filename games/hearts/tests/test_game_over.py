"""GameOver: whoever ended the game wins; nobody is active any more."""

import pytest
from tabletop import GameResult
from tabletop.testing import GameHarness
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import HydratedHeartsGameState
from tabletop_hearts.state_handlers.game_over import GameOver

Harness = GameHarness[HydratedHeartsGameState, HeartsConfig]


@pytest.mark.parametrize("ended_by", ["p1", "p2"])
def test_enter_makes_whoever_ended_the_game_the_winner(harness: Harness, ended_by: str) -> None:
    ctx = harness.context()
    ctx.state.ended_by = ended_by
    GameOver().enter(ctx)
    assert ctx.state.result is GameResult.WIN
    assert ctx.state.winning_player_ids == [ended_by]
    assert ctx.state.active_player_ids == []
    assert ctx.turns.current_turn is None


def test_nothing_is_valid_once_the_game_is_over(harness: Harness) -> None:
    assert GameOver().valid_actions_for_player("p1", harness.context()) == []
