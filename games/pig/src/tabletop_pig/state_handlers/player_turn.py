"""PlayerTurn: the player on turn rolls until they hold or roll a 1."""

from tabletop_pig.definition.actions import ActionType
from tabletop_pig.definition.states import MachineState
from tabletop_pig.model.game_state import Ctx, Handler


class PlayerTurn(Handler):
    """Roll or hold; a 1 or a hold passes the turn, a hold that reaches the target ends the game."""

    accepts = (ActionType.ROLL, ActionType.HOLD)
    transitions_to = (MachineState.PLAYER_TURN, MachineState.GAME_OVER)
    action_targets = {
        ActionType.ROLL: (MachineState.PLAYER_TURN,),
        ActionType.HOLD: (MachineState.PLAYER_TURN, MachineState.GAME_OVER),
    }

    def enter(self, ctx: Ctx) -> None:
        ctx.start_next_turn()

    def on_action(self, action: object, ctx: Ctx) -> MachineState | None:
        if ctx.state.winner(ctx.config.target) is not None:
            return MachineState.GAME_OVER
        if ctx.state.turn_total == 0:  # a 1, or a hold: entering again starts the next turn
            return MachineState.PLAYER_TURN
        return None  # points on the line: stay, the same player rolls or holds
