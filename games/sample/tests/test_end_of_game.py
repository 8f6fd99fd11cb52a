"""EndOfGame: one leader wins, a tie for the lead is a draw, nobody is active."""

import pytest
from tabletop import GameResult
from tabletop.testing import GameHarness
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import HydratedSampleGameState
from tabletop_sample.state_handlers.end_of_game import EndOfGame

SampleHarness = GameHarness[HydratedSampleGameState, SampleConfig]


@pytest.mark.parametrize(
    ("scores", "result", "winners"),
    [((10, 3), GameResult.WIN, ["p1"]), ((4, 9), GameResult.WIN, ["p2"]), ((7, 7), GameResult.DRAW, [])],
)
def test_enter_settles_the_result(
    harness: SampleHarness, scores: tuple[int, int], result: GameResult, winners: list[str]
) -> None:
    ctx = harness.context()
    for player, score in zip(ctx.state.players, scores, strict=True):
        player.score = score
    EndOfGame().enter(ctx)
    assert ctx.state.result is result
    assert ctx.state.winning_player_ids == winners
    assert ctx.state.active_player_ids == []
    assert ctx.turns.current_turn is None


def test_the_terminal_state_offers_nothing(harness: SampleHarness) -> None:
    assert EndOfGame().valid_actions_for_player("p1", harness.context()) == []
