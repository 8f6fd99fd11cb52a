"""One handler instance per machine state."""

from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.state_handlers.bidding import Bidding
from tabletop_goofspiel.state_handlers.game_over import GameOver
from tabletop_goofspiel.state_handlers.revealing import Revealing

state_handlers = {
    MachineState.BIDDING: Bidding(),
    MachineState.REVEALING: Revealing(),
    MachineState.GAME_OVER: GameOver(),
}
