"""PriceSetting: the auctioneer of a fixed-price lot names its price."""

from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler


class PriceSetting(Handler):
    """Only the auctioneer acts; then the price is offered round the table."""

    accepts = (ActionType.SET_PRICE,)
    transitions_to = (MachineState.FIXED_PRICE_OFFER,)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = [ctx.state.current_lot().auctioneer_id]

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        return MachineState.FIXED_PRICE_OFFER
