"""The assembled Goofspiel definition."""

from tabletop import GameDefinition

from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.actions.reveal import HydratedReveal
from tabletop_goofspiel.definition.actions import ActionType
from tabletop_goofspiel.definition.state_handlers import state_handlers
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.determinizer import determinize
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState, setup

definition = GameDefinition(
    name="goofspiel",
    state_type=HydratedGoofspielGameState,
    config_type=GoofspielConfig,
    machine_states=MachineState,
    initial_state=MachineState.BIDDING,
    action_types=ActionType,
    actions=[HydratedBid, HydratedReveal],
    handlers=state_handlers,
    setup=setup,
    min_players=2,
    max_players=2,
    determinizer=determinize,
)
