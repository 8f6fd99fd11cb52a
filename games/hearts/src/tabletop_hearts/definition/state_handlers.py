"""One handler instance per machine state."""

from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.state_handlers.dealing import Dealing
from tabletop_hearts.state_handlers.game_over import GameOver
from tabletop_hearts.state_handlers.passing import Passing
from tabletop_hearts.state_handlers.playing import Playing

state_handlers = {
    MachineState.DEALING: Dealing(),
    MachineState.PASSING: Passing(),
    MachineState.PLAYING: Playing(),
    MachineState.GAME_OVER: GameOver(),
}
