"""FixedPriceOffer: from the auctioneer's left, each player may buy at the price; else the auctioneer must."""

from tabletop_gallery.actions.buy import fixed_price
from tabletop_gallery.actions.sell import sell_lot
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler


class FixedPriceOffer(Handler):
    """The player asked buys or passes; the first buyer gets the lot; if nobody does, the auctioneer must."""

    accepts = (ActionType.BUY, ActionType.PASS)
    transitions_to = (MachineState.FIXED_PRICE_OFFER, MachineState.SELLING)

    def enter(self, ctx: Ctx) -> None:
        to_act = fixed_price(ctx.state).to_act
        ctx.state.active_player_ids = [] if to_act is None else [to_act]

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        if not ctx.state.current_auction().is_over:
            return MachineState.FIXED_PRICE_OFFER
        sell_lot(ctx)
        return MachineState.SELLING
