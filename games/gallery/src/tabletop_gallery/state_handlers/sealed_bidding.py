"""SealedBidding: everyone bids at once, in secret; the bids show when all are in."""

from tabletop.components import HydratedSealedBidAuction, TieBreak

from tabletop_gallery.actions.reveal_bids import HydratedRevealBids
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler


class SealedBidding(Handler):
    """Every player who has not bid is active; the bids form one simultaneous group.

    Ties go to the first tied player in bid order: from the auctioneer's left, the auctioneer last.
    """

    accepts = (ActionType.SEAL_BID,)
    transitions_to = (MachineState.SEALED_BIDDING, MachineState.REVEALING)

    def enter(self, ctx: Ctx) -> None:
        """Open the auction and its simultaneous group if none is open; those still to bid are active."""
        state = ctx.state
        if state.auction is None:
            lot = state.current_lot()
            state.auction = HydratedSealedBidAuction(
                participants=state.bid_order(lot.auctioneer_id), tie_break=TieBreak.FIRST_IN_ORDER
            )
            ctx.open_simultaneous_group()
        auction = state.current_auction()
        assert isinstance(auction, HydratedSealedBidAuction)
        state.active_player_ids = auction.waiting_for

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        """With every bid in: close the group and queue the reveal."""
        if not ctx.state.current_auction().is_over:
            return MachineState.SEALED_BIDDING
        ctx.close_simultaneous_group()
        ctx.add_system_action(HydratedRevealBids, reveals_info=True)
        return MachineState.REVEALING
