"""The assembled Goofspiel definition."""

from tabletop import GameDefinition

from tabletop_goofspiel.definition.migrations import migrations
from tabletop_goofspiel.definition.state_handlers import state_handlers
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.determinizer import determinize
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState, setup
from tabletop_goofspiel.model.invariants import config_invariants, invariants

definition = GameDefinition(
    name="goofspiel",
    state_type=HydratedGoofspielGameState,
    config_type=GoofspielConfig,
    initial_state=MachineState.BIDDING,
    handlers=state_handlers,
    setup=setup,
    min_players=2,
    max_players=2,
    logic_version="4.0.0",
    migrations=migrations,
    determinizer=determinize,
    invariants=invariants,
    title="Goofspiel",
    description="Bid a card from your hand for each prize, both at once, sealed; the higher bid takes it.",
    config_invariants=config_invariants,
    example_configs=[GoofspielConfig(cards=5, points_order="descending")],
)
