"""One handler instance per machine state."""

from tabletop_sample.definition.states import MachineState
from tabletop_sample.state_handlers.end_of_game import EndOfGame
from tabletop_sample.state_handlers.start_of_turn import StartOfTurn

state_handlers = {
    MachineState.START_OF_TURN: StartOfTurn(),
    MachineState.END_OF_GAME: EndOfGame(),
}
