"""One handler per machine state."""

from tabletop_fixtures.dice_tray.definition.states import MachineState
from tabletop_fixtures.dice_tray.state_handlers.done import Done
from tabletop_fixtures.dice_tray.state_handlers.rolling import Rolling

state_handlers = {MachineState.ROLLING: Rolling(), MachineState.DONE: Done()}
