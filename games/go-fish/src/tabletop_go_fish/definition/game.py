"""The assembled Go Fish definition."""

from tabletop import GameDefinition

from tabletop_go_fish.actions.ask import HydratedAsk
from tabletop_go_fish.actions.draw_card import HydratedDrawCard
from tabletop_go_fish.definition.actions import ActionType
from tabletop_go_fish.definition.state_handlers import state_handlers
from tabletop_go_fish.definition.states import MachineState
from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.determinizer import determinize
from tabletop_go_fish.model.game_state import HydratedGoFishGameState, setup

definition = GameDefinition(
    name="go-fish",
    state_type=HydratedGoFishGameState,
    config_type=GoFishConfig,
    machine_states=MachineState,
    initial_state=MachineState.PLAYER_TURN,
    action_types=ActionType,
    actions=[HydratedAsk, HydratedDrawCard],
    handlers=state_handlers,
    setup=setup,
    min_players=2,
    max_players=6,
    determinizer=determinize,
)
