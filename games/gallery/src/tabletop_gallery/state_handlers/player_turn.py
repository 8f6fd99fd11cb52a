"""PlayerTurn: the next player in turn order who holds a painting puts one up for auction."""

from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler, after_put_up


class PlayerTurn(Handler):
    """The auctioneer plays a painting; its kind says which auction follows (or the round ends)."""

    accepts = (ActionType.PLAY_PAINTING,)
    transitions_to = (
        MachineState.DOUBLE_OFFER,
        MachineState.OPEN_BIDDING,
        MachineState.ONCE_AROUND_BIDDING,
        MachineState.SEALED_BIDDING,
        MachineState.PRICE_SETTING,
        MachineState.ROUND_END,
    )

    def enter(self, ctx: Ctx) -> None:
        """Give the turn to the next player in turn order with a painting in hand.

        Entered only while someone holds one (Dealing and Selling check).
        """
        state = ctx.state
        ctx.start_next_turn(skip=lambda player_id: not state.player(player_id).hand)

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        return after_put_up(ctx.state)
