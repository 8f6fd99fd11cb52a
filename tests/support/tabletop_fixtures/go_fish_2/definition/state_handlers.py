"""One handler instance per machine state."""

from tabletop_fixtures.go_fish_2.definition.states import MachineState
from tabletop_fixtures.go_fish_2.state_handlers.game_over import GameOver
from tabletop_fixtures.go_fish_2.state_handlers.player_turn import PlayerTurn

state_handlers = {MachineState.PLAYER_TURN: PlayerTurn(), MachineState.GAME_OVER: GameOver()}
