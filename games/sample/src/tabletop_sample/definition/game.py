"""The assembled sample game definition."""

from tabletop import GameDefinition

from tabletop_sample.actions.add_amount import HydratedAddAmount
from tabletop_sample.actions.pass_turn import HydratedPass
from tabletop_sample.definition.actions import ActionType
from tabletop_sample.definition.state_handlers import state_handlers
from tabletop_sample.definition.states import MachineState
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import HydratedSampleGameState, setup

definition = GameDefinition(
    name="sample",
    state_type=HydratedSampleGameState,
    config_type=SampleConfig,
    machine_states=MachineState,
    initial_state=MachineState.START_OF_TURN,
    action_types=ActionType,
    actions=[HydratedAddAmount, HydratedPass],
    handlers=state_handlers,
    setup=setup,
    min_players=1,
    max_players=6,
    logic_version="1.1.0",
)
