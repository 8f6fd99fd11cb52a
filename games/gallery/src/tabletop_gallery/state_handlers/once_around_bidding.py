"""OnceAroundBidding: each player once, from the auctioneer's left (the auctioneer last), bids or passes."""

from tabletop.components import HydratedOnceAroundAuction

from tabletop_gallery.actions.bid import open_or_once_around
from tabletop_gallery.actions.sell import sell_lot
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler


class OnceAroundBidding(Handler):
    """One chance each; after the auctioneer's, the high bid wins."""

    accepts = (ActionType.BID, ActionType.PASS)
    transitions_to = (MachineState.ONCE_AROUND_BIDDING, MachineState.SELLING)

    def enter(self, ctx: Ctx) -> None:
        """Open the auction on the lot if none runs; the participant to act is the only active player."""
        state = ctx.state
        if state.auction is None:
            lot = state.current_lot()
            state.auction = HydratedOnceAroundAuction(
                participants=state.bid_order(lot.auctioneer_id), minimum_bid=1
            )
        to_act = open_or_once_around(state).to_act
        state.active_player_ids = [] if to_act is None else [to_act]

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        if not ctx.state.current_auction().is_over:
            return MachineState.ONCE_AROUND_BIDDING
        sell_lot(ctx)
        return MachineState.SELLING
