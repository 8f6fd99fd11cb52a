"""The dice tray definition: no action list, no enums, no config type; all derived."""

from tabletop import GameDefinition

from tabletop_fixtures.dice_tray.definition.state_handlers import state_handlers
from tabletop_fixtures.dice_tray.definition.states import MachineState
from tabletop_fixtures.dice_tray.model.game_state import HydratedTrayState

definition = GameDefinition(
    name="dice-tray",
    state_type=HydratedTrayState,
    initial_state=MachineState.ROLLING,
    handlers=state_handlers,
    min_players=2,
    max_players=4,
)
