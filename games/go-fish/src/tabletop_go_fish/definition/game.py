"""The assembled Go Fish definition."""

from tabletop import GameDefinition

from tabletop_go_fish.definition.migrations import migrations
from tabletop_go_fish.definition.state_handlers import state_handlers
from tabletop_go_fish.definition.states import MachineState
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.determinizer import determinize
from tabletop_go_fish.model.game_state import HydratedGoFishGameState, setup
from tabletop_go_fish.model.invariants import invariants

definition = GameDefinition(
    name="go-fish",
    state_type=HydratedGoFishGameState,
    config_type=GoFishConfig,
    initial_state=MachineState.DEALING,
    handlers=state_handlers,
    setup=setup,
    min_players=2,
    max_players=6,
    logic_version="5.0.0",
    determinizer=determinize,
    invariants=invariants,
    migrations=migrations,
    title="Go Fish",
    description="Ask another player for a rank you hold; collect books of four. Hands are hidden.",
)
