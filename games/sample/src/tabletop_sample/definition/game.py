"""The assembled sample game definition."""

from tabletop import GameDefinition

from tabletop_sample.definition.migrations import migrations
from tabletop_sample.definition.state_handlers import state_handlers
from tabletop_sample.definition.states import MachineState
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import HydratedSampleGameState, setup
from tabletop_sample.model.invariants import config_invariants, invariants

definition = GameDefinition(
    name="sample",
    state_type=HydratedSampleGameState,
    config_type=SampleConfig,
    initial_state=MachineState.START_OF_TURN,
    handlers=state_handlers,
    setup=setup,
    min_players=1,
    max_players=6,
    logic_version="3.0.0",
    migrations=migrations,
    title="Sample",
    description="Players take turns adding 1 to 5 to a shared total; the highest score wins.",
    example_configs=[SampleConfig(big_totals_allowed=True)],
    invariants=invariants,
    config_invariants=config_invariants,
)
