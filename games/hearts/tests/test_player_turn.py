"""PlayerTurn: entering it gives the next player in turn order the turn."""

from tabletop.testing import GameHarness
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import HydratedHeartsGameState
from tabletop_hearts.state_handlers.player_turn import PlayerTurn

Harness = GameHarness[HydratedHeartsGameState, HeartsConfig]


def test_enter_gives_the_next_player_the_turn(harness: Harness) -> None:
    ctx = harness.context()
    assert ctx.state.active_player_ids == ["p1"]
    PlayerTurn().enter(ctx)
    assert ctx.state.active_player_ids == ["p2"]
    assert ctx.turns.current_player_id == "p2"
    assert ctx.turns.turn_count == 2
