"""One handler instance per machine state."""

from tabletop_backgammon.definition.states import MachineState
from tabletop_backgammon.state_handlers.game_over import GameOver
from tabletop_backgammon.state_handlers.player_turn import PlayerTurn

state_handlers = {MachineState.PLAYER_TURN: PlayerTurn(), MachineState.GAME_OVER: GameOver()}
