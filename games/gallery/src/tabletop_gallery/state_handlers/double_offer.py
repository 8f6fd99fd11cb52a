"""DoubleOffer: a double waits for a second painting of its artist, offered round the table."""

from tabletop_gallery.actions.sell import sell_lot
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler, after_put_up


class DoubleOffer(Handler):
    """The auctioneer, then each other player from their left, may add a second painting or decline.

    The first to add one becomes the pair's auctioneer and the pair is auctioned under the
    second card's kind; if everyone declines, the auctioneer takes the double for free.
    """

    accepts = (ActionType.ADD_PAINTING, ActionType.DECLINE)
    transitions_to = (
        MachineState.DOUBLE_OFFER,
        MachineState.OPEN_BIDDING,
        MachineState.ONCE_AROUND_BIDDING,
        MachineState.SEALED_BIDDING,
        MachineState.PRICE_SETTING,
        MachineState.SELLING,
        MachineState.ROUND_END,
    )

    def enter(self, ctx: Ctx) -> None:
        """The player asked now is the only one who may act."""
        ctx.state.active_player_ids = ctx.state.current_lot().offered_to[:1]

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        lot = ctx.state.lot
        if lot is None or len(lot.paintings) == 2:
            return after_put_up(ctx.state)
        if lot.offered_to:
            return MachineState.DOUBLE_OFFER
        sell_lot(ctx)
        return MachineState.SELLING
