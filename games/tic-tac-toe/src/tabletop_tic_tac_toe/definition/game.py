"""The assembled tic-tac-toe definition."""

from tabletop import GameDefinition
from tabletop.adapters import register_adapter_hints

from tabletop_tic_tac_toe.actions.place_mark import HydratedPlaceMark
from tabletop_tic_tac_toe.definition.actions import ActionType
from tabletop_tic_tac_toe.definition.state_handlers import state_handlers
from tabletop_tic_tac_toe.definition.states import MachineState
from tabletop_tic_tac_toe.model.config import TicTacToeConfig
from tabletop_tic_tac_toe.model.game_state import HydratedTicTacToeGameState
from tabletop_tic_tac_toe.model.observation import OBSERVATION_TENSOR

definition = GameDefinition(
    name="tic-tac-toe",
    state_type=HydratedTicTacToeGameState,
    config_type=TicTacToeConfig,
    machine_states=MachineState,
    initial_state=MachineState.PLAYER_TURN,
    action_types=ActionType,
    actions=[HydratedPlaceMark],
    handlers=state_handlers,
    min_players=2,
    max_players=2,
    logic_version="1.1.0",
)

register_adapter_hints(
    definition.name, max_game_length=9, observation_tensor=OBSERVATION_TENSOR, perfect_information=True
)
