"""The assembled Hearts definition."""

from tabletop import GameDefinition

from tabletop_hearts.definition.state_handlers import state_handlers
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.game_state import HydratedHeartsGameState, setup

definition = GameDefinition(
    name="hearts",
    state_type=HydratedHeartsGameState,
    initial_state=MachineState.PLAYER_TURN,
    handlers=state_handlers,
    setup=setup,
    min_players=1,
    max_players=8,
    title="Hearts",
    description="Players take turns; the player on turn may end the game, and wins it.",
)
