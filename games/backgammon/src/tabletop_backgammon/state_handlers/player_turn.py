"""PlayerTurn: the dice are rolled for a player, who moves checkers one die at a time."""

from tabletop_backgammon.actions.roll_dice import HydratedRollDice
from tabletop_backgammon.definition.actions import ActionType
from tabletop_backgammon.definition.states import MachineState
from tabletop_backgammon.model.game_state import Ctx, Handler


class PlayerTurn(Handler):
    """Entering rolls the dice for the next player; they move (or pass) until the dice are used.

    A step that leaves dice to play stays; the last one re-enters (the opponent's roll), or ends
    the game when someone has borne off all 15 checkers or the turn limit is passed.
    """

    accepts = (ActionType.MOVE, ActionType.PASS, ActionType.ROLL_DICE)
    transitions_to = (MachineState.PLAYER_TURN, MachineState.GAME_OVER)
    action_targets = {
        ActionType.ROLL_DICE: (),
        ActionType.MOVE: (MachineState.PLAYER_TURN, MachineState.GAME_OVER),
        ActionType.PASS: (MachineState.PLAYER_TURN, MachineState.GAME_OVER),
    }

    def valid_actions_for_player(self, player_id: str, ctx: Ctx) -> list[str]:
        """Players move or pass; RollDice is the game's own."""
        return [ActionType.MOVE.value, ActionType.PASS.value]

    def enter(self, ctx: Ctx) -> None:
        ctx.add_system_action(HydratedRollDice)

    def on_action(self, action: object, ctx: Ctx) -> MachineState | None:
        state = ctx.state
        if state.winner() is not None or state.turns > ctx.config.max_player_turns:
            return MachineState.GAME_OVER
        if state.unused:
            return None  # dice left (or a double's second half): the same player goes on
        return MachineState.PLAYER_TURN
