"""Selling: nobody acts while the queued Sell hands the lot over."""

from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler


class Selling(Handler):
    """Accepts only the game's Sell; then the next turn, or the round's end once no hand holds a painting."""

    accepts = (ActionType.SELL,)
    transitions_to = (MachineState.PLAYER_TURN, MachineState.ROUND_END)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = []

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        return MachineState.PLAYER_TURN if ctx.state.anyone_holds_paintings() else MachineState.ROUND_END
