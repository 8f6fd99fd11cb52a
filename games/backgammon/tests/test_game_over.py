"""GameOver: bearing off the 15th checker wins; single, gammon and backgammon by scoring type."""

from collections.abc import Callable

import pytest
from tabletop import GameResult
from tabletop.testing import GameHarness
from tabletop_backgammon import definition
from tabletop_backgammon.actions.move import HydratedMove
from tabletop_backgammon.model.config import BackgammonConfig, ScoringType
from tabletop_backgammon.model.game_state import HydratedBackgammonGameState, WinKind
from tabletop_backgammon.state_handlers.game_over import GameOver

Harness = GameHarness[HydratedBackgammonGameState, BackgammonConfig]
Place = Callable[..., None]

LOSERS: dict[WinKind, tuple[dict[int, int], tuple[int, int]]] = {
    "single": ({1: 14}, (0, 0)),  # Black bore one off
    "gammon": ({1: 15}, (0, 0)),  # none off, all in their own home
    "backgammon": ({1: 14, 20: 1}, (0, 0)),  # none off, one in White's home board
}
POINTS: dict[ScoringType, dict[WinKind, int]] = {
    "winloss_scoring": {"single": 1, "gammon": 1, "backgammon": 1},
    "enable_gammons": {"single": 1, "gammon": 2, "backgammon": 2},
    "full_scoring": {"single": 1, "gammon": 2, "backgammon": 3},
}


@pytest.mark.parametrize("scoring_type", list(POINTS))
@pytest.mark.parametrize("kind", list(LOSERS))
def test_bearing_off_the_last_checker_wins_what_the_scoring_type_says(
    place: Place, scoring_type: ScoringType, kind: WinKind
) -> None:
    harness = GameHarness(definition, players=2, seed=3, config=BackgammonConfig(scoring_type=scoring_type))
    black, bars = LOSERS[kind]
    place(harness.state, {24: 1}, black, dice=(1, 2), bars=bars)
    result = harness.run(harness.action(HydratedMove, "p1", point=24, die=2))
    state = result.state
    assert state.result is GameResult.WIN and state.winning_player_ids == ["p1"]
    assert (state.win_kind, state.win_points) == (kind, POINTS[scoring_type][kind])
    assert state.returns() == [POINTS[scoring_type][kind], -POINTS[scoring_type][kind]]
    assert state.active_player_ids == [] and state.unused == []


def test_a_checker_on_the_bar_is_a_backgammon(place: Place) -> None:
    harness = GameHarness(definition, players=2, seed=3, config=BackgammonConfig(scoring_type="full_scoring"))
    place(harness.state, {24: 1}, {1: 14}, dice=(1, 2), bars=(0, 1))
    state = harness.run(harness.action(HydratedMove, "p1", point=24, die=2)).state
    assert (state.win_kind, state.win_points, state.returns()) == ("backgammon", 3, [3.0, -3.0])


def test_past_the_turn_limit_the_game_is_a_draw(harness: Harness) -> None:
    ctx = harness.context()
    GameOver().enter(ctx)  # nobody has borne off 15: the turn limit ended it
    assert ctx.state.result is GameResult.DRAW and ctx.state.winning_player_ids == []
    assert ctx.state.returns() == [0.0, 0.0] and ctx.state.win_points == 0


def test_nothing_is_valid_once_the_game_is_over(harness: Harness) -> None:
    assert GameOver().valid_actions_for_player("p1", harness.context()) == []
