"""StartOfTurn: the next player gets the turn and 5 to spend; the maximum total ends the game."""

from tabletop.testing import GameHarness
from tabletop_sample.actions.add_amount import HydratedAddAmount
from tabletop_sample.definition.states import MachineState
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import HydratedSampleGameState
from tabletop_sample.state_handlers.start_of_turn import StartOfTurn

SampleHarness = GameHarness[HydratedSampleGameState, SampleConfig]


def test_enter_starts_the_next_turn_and_gives_five(harness: SampleHarness) -> None:
    ctx = harness.context()
    current = ctx.state.active_player_ids[0]
    StartOfTurn().enter(ctx)
    (following,) = ctx.state.active_player_ids
    assert following != current
    assert ctx.state.player(following).amount == 5
    assert ctx.turns.current_player_id == following
    assert ctx.turns.turn_count == 2


def test_on_action_stays_until_the_maximum_then_ends(harness: SampleHarness) -> None:
    ctx = harness.context()
    action = harness.action(HydratedAddAmount, ctx.state.active_player_ids[0], amount=1)
    assert StartOfTurn().on_action(action, ctx) is MachineState.START_OF_TURN
    ctx.state.total = ctx.state.max_total
    assert StartOfTurn().on_action(action, ctx) is MachineState.END_OF_GAME


def test_valid_actions_are_add_amount_and_pass(harness: SampleHarness) -> None:
    player = harness.state.active_player_ids[0]
    assert harness.engine.valid_action_types(harness.state, player, harness.game) == ["AddAmount", "Pass"]
