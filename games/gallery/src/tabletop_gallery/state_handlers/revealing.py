"""Revealing: nobody acts while the queued RevealBids shows the sealed bids."""

from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler


class Revealing(Handler):
    """Accepts only the game's RevealBids, which queues the sale."""

    accepts = (ActionType.REVEAL_BIDS,)
    transitions_to = (MachineState.SELLING,)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = []

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        return MachineState.SELLING
