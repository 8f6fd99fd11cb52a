"""The assembled tic-tac-toe definition."""

from tabletop import GameDefinition
from tabletop.adapters import register_adapter_hints

from tabletop_tic_tac_toe.definition.migrations import migrations
from tabletop_tic_tac_toe.definition.state_handlers import state_handlers
from tabletop_tic_tac_toe.definition.states import MachineState
from tabletop_tic_tac_toe.model.game_state import HydratedTicTacToeGameState
from tabletop_tic_tac_toe.model.observation import OBSERVATION_TENSOR

definition = GameDefinition(
    name="tic-tac-toe",
    state_type=HydratedTicTacToeGameState,
    initial_state=MachineState.PLAYER_TURN,
    handlers=state_handlers,
    min_players=2,
    max_players=2,
    logic_version="3.0.0",
    migrations=migrations,
    title="Tic-tac-toe",
    description="Three in a row on a 3×3 board.",
)

register_adapter_hints(
    definition.name, max_game_length=9, observation_tensor=OBSERVATION_TENSOR, perfect_information=True
)
