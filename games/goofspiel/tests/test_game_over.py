"""GameOver: the higher total wins, equal totals draw; nobody may act any more."""

import pytest
from tabletop import GameResult
from tabletop.testing import GameHarness
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState
from tabletop_goofspiel.state_handlers.game_over import GameOver

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]


@pytest.mark.parametrize(
    ("scores", "result", "winners"),
    [
        ((50, 41), GameResult.WIN, ["p1"]),
        ((12, 13), GameResult.WIN, ["p2"]),
        ((30, 30), GameResult.DRAW, []),
        ((0, 0), GameResult.DRAW, []),
    ],
)
def test_enter_settles_the_result_by_total(
    harness: Harness, scores: tuple[int, int], result: GameResult, winners: list[str]
) -> None:
    ctx = harness.context()
    ctx.state.player("p1").score, ctx.state.player("p2").score = scores
    GameOver().enter(ctx)
    assert ctx.state.result is result
    assert ctx.state.winning_player_ids == winners
    assert ctx.state.active_player_ids == []


def test_nothing_is_valid_once_the_game_is_over(harness: Harness) -> None:
    assert GameOver().valid_actions_for_player("p1", harness.context()) == []
