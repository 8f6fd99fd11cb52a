"""One handler instance per machine state."""

from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.state_handlers.game_over import GameOver
from tabletop_hearts.state_handlers.player_turn import PlayerTurn

state_handlers = {MachineState.PLAYER_TURN: PlayerTurn(), MachineState.GAME_OVER: GameOver()}
