"""Rolling: the player on turn rolls as often as they like, then holds or banks."""

from tabletop import GameAction

from tabletop_fixtures.dice_tray.definition.actions import ActionType
from tabletop_fixtures.dice_tray.definition.states import MachineState
from tabletop_fixtures.dice_tray.model.game_state import Ctx, Handler


class Rolling(Handler):
    """Roll stays (same player, no new turn); Hold passes the turn; Bank passes it or ends the game."""

    accepts = (ActionType.ROLL, ActionType.HOLD, ActionType.BANK)
    transitions_to = (MachineState.ROLLING, MachineState.DONE)
    action_targets = {ActionType.ROLL: (), ActionType.HOLD: (MachineState.ROLLING,)}

    def enter(self, ctx: Ctx) -> None:
        ctx.state.rolls = 0
        ctx.start_next_turn()

    def on_action(self, action: GameAction, ctx: Ctx) -> MachineState | None:
        if action.type == ActionType.ROLL:
            return None  # stay: the same player rolls again or stops, and enter() does not run
        if any(p.banked >= ctx.config.target for p in ctx.state.players):
            return MachineState.DONE
        return MachineState.ROLLING
