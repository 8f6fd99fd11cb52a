"""PlayerTurn: the player on turn rolls until they hold or roll a 1."""

from tabletop_pig.actions.roll import HydratedRoll
from tabletop_pig.definition.actions import ActionType
from tabletop_pig.definition.states import MachineState
from tabletop_pig.model.game_state import Ctx, Handler


class PlayerTurn(Handler):
    """Roll or hold; a 1 or a hold passes the turn, a hold that reaches the target ends the game.

    The die of a roll is the ``RollDie`` chance point the roll queues, in the same state.
    """

    accepts = (ActionType.ROLL, ActionType.HOLD, ActionType.ROLL_DIE)
    transitions_to = (MachineState.PLAYER_TURN, MachineState.GAME_OVER)
    action_targets = {
        ActionType.ROLL: (MachineState.GAME_OVER,),  # the horizon
        ActionType.ROLL_DIE: (MachineState.PLAYER_TURN,),
        ActionType.HOLD: (MachineState.PLAYER_TURN, MachineState.GAME_OVER),
    }

    def valid_actions_for_player(self, player_id: str, ctx: Ctx) -> list[str]:
        return [ActionType.ROLL.value, ActionType.HOLD.value]  # RollDie is the game's

    def enter(self, ctx: Ctx) -> None:
        ctx.start_next_turn()

    def on_action(self, action: object, ctx: Ctx) -> MachineState | None:
        state = ctx.state
        if state.over(ctx.config):
            return MachineState.GAME_OVER
        if isinstance(action, HydratedRoll):
            return None  # the die is rolled next (RollDie), in this state
        if state.turn_total == 0:  # a 1, or a hold: entering again starts the next turn
            return MachineState.PLAYER_TURN
        return None  # points on the line: stay, the same player rolls or holds
