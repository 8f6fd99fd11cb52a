"""The assembled Hearts definition."""

from tabletop import GameDefinition

from tabletop_hearts.components.cards import PLAYERS
from tabletop_hearts.definition.migrations import migrations
from tabletop_hearts.definition.state_handlers import state_handlers
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.determinizer import determinize
from tabletop_hearts.model.game_state import HydratedHeartsGameState, setup
from tabletop_hearts.model.invariants import config_invariants, invariants

definition = GameDefinition(
    name="hearts",
    state_type=HydratedHeartsGameState,
    config_type=HeartsConfig,
    initial_state=MachineState.DEALING,
    handlers=state_handlers,
    setup=setup,
    min_players=PLAYERS,
    max_players=PLAYERS,
    logic_version="2.0.0",
    migrations=migrations,
    determinizer=determinize,
    invariants=invariants,
    config_invariants=config_invariants,
    title="Hearts",
    description="Pass three cards, then play tricks dodging hearts and the queen of spades; lowest wins.",
)
