"""PlayerTurn: the players alternate, one stone a turn."""

from tabletop_hex.definition.actions import ActionType
from tabletop_hex.definition.states import MachineState
from tabletop_hex.model.game_state import Ctx, Handler


class PlayerTurn(Handler):
    """The player on turn places one stone; the first chain that joins its owner's edges ends the game."""

    accepts = (ActionType.PLACE_STONE,)
    transitions_to = (MachineState.PLAYER_TURN, MachineState.GAME_OVER)

    def enter(self, ctx: Ctx) -> None:
        ctx.start_next_turn()

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        return MachineState.GAME_OVER if ctx.state.winning_chain else MachineState.PLAYER_TURN
