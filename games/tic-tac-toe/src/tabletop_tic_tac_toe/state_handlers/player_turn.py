"""PlayerTurn: the players alternate, one mark a turn."""

from tabletop_tic_tac_toe.definition.actions import ActionType
from tabletop_tic_tac_toe.definition.states import MachineState
from tabletop_tic_tac_toe.model.game_state import Ctx, Handler


class PlayerTurn(Handler):
    """The next player places one mark; three in a line or a full board ends the game."""

    accepts = (ActionType.PLACE_MARK,)
    transitions_to = (MachineState.PLAYER_TURN, MachineState.GAME_OVER)

    def enter(self, ctx: Ctx) -> None:
        ctx.start_next_turn()

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        over = ctx.state.winner() is not None or ctx.state.board.is_full()
        return MachineState.GAME_OVER if over else MachineState.PLAYER_TURN
