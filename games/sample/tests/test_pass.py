"""Pass: only the active player may pass, and passing changes nothing but the turn."""

from tabletop.testing import GameHarness
from tabletop_sample.actions.pass_turn import HydratedPass
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import HydratedSampleGameState

SampleHarness = GameHarness[HydratedSampleGameState, SampleConfig]


def test_pass_changes_nothing_in_the_game_fields(harness: SampleHarness) -> None:
    ctx = harness.context()
    player = ctx.state.active_player_ids[0]
    before = ctx.state.model_dump()
    harness.action(HydratedPass, player).apply(ctx)
    assert ctx.state.model_dump() == before


def test_only_the_active_player_can_pass(harness: SampleHarness) -> None:
    state = harness.state
    active = state.active_player_ids[0]
    assert HydratedPass.can_pass(state, active)
    assert [a.type for a in HydratedPass.enumerate(state, active)] == ["Pass"]
    inactive = next(p.player_id for p in state.players if p.player_id != active)
    assert not HydratedPass.can_pass(state, inactive)
    assert HydratedPass.enumerate(state, inactive) == []


def test_passing_moves_the_turn_to_the_next_player(harness: SampleHarness) -> None:
    first = harness.state.active_player_ids[0]
    state = harness.play(harness.action(HydratedPass, first))
    assert state.active_player_ids != [first]
    assert state.total == 0
