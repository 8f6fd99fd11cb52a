"""Dealing: a round starts; the game deals the paintings for it."""

from tabletop_gallery.actions.deal import HydratedDeal
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler


class Dealing(Handler):
    """Nobody acts while the queued Deal starts the round; then play (or scoring, if no hand holds any)."""

    accepts = (ActionType.DEAL,)
    transitions_to = (MachineState.PLAYER_TURN, MachineState.ROUND_END)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = []
        ctx.add_system_action(HydratedDeal)

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        return MachineState.PLAYER_TURN if ctx.state.anyone_holds_paintings() else MachineState.ROUND_END
