"""One handler instance per machine state."""

from tabletop_go_fish.definition.states import MachineState
from tabletop_go_fish.state_handlers.dealing import Dealing
from tabletop_go_fish.state_handlers.game_over import GameOver
from tabletop_go_fish.state_handlers.player_turn import PlayerTurn

state_handlers = {
    MachineState.DEALING: Dealing(),
    MachineState.PLAYER_TURN: PlayerTurn(),
    MachineState.GAME_OVER: GameOver(),
}
