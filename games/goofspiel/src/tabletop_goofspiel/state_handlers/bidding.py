"""Bidding: a prize is turned up and both players bid a card for it, in secret, in either order."""

from tabletop import StateHandler
from tabletop.components import HydratedSealedBidAuction

from tabletop_goofspiel.actions.reveal import HydratedReveal
from tabletop_goofspiel.actions.reveal_prize import HydratedRevealPrize
from tabletop_goofspiel.definition.actions import ActionType
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState


class Bidding(StateHandler[HydratedGoofspielGameState, GoofspielConfig]):
    """The round's prize comes up, then both players are active until both have bid; a Reveal resolves it.

    With ``points_order`` ``random`` the prize is a ``RevealPrize`` chance point the state queues
    (nobody acts until it is decided); ``descending`` and ``ascending`` turn up the highest or
    lowest prize left. A round's bids form one simultaneous group: both players may bid on the
    state they saw when the prize came up, in either order (a bid naming the group may lag behind
    the action count).
    """

    accepts = (ActionType.BID, ActionType.REVEAL_PRIZE)
    transitions_to = (MachineState.BIDDING, MachineState.REVEALING)

    def enter(self, ctx: Ctx) -> None:
        """Open a round if none is open: turn up the next prize, then open the auction.

        Without a prize up, queues ``RevealPrize`` (random order) and waits for it, or turns up
        the prize the order says. With the prize up, opens a simultaneous group for the round's
        bids (one ``rand_id()``) and the auction, and makes both players active. Re-entered after
        the first bid of a round, it leaves the open round and group alone.
        """
        state, order = ctx.state, ctx.config.points_order
        if state.auction is None:
            if state.prize is None and order == "random":
                state.active_player_ids = []
                ctx.add_system_action(HydratedRevealPrize)
                return
            if state.prize is None:
                left = state.prizes_left
                state.prize = left[-1] if order == "descending" else left[0]
            player_ids = [player.player_id for player in state.players]
            state.auction = HydratedSealedBidAuction(participants=player_ids)
            state.active_player_ids = player_ids
        if state.simultaneous_group is None:
            ctx.open_simultaneous_group()

    def valid_actions_for_player(self, player_id: str, ctx: Ctx) -> list[str]:
        """A player may bid once a round: nothing is left to do for one who has bid (nor before the prize)."""
        auction = ctx.state.auction
        if auction is None or auction.has_bid(player_id):
            return []
        return [ActionType.BID.value]  # RevealPrize is the game's

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        """After the prize, open the round; wait for the other bid; with both in, close the group,
        queue the Reveal, move to Revealing."""
        if isinstance(action, HydratedRevealPrize):
            return MachineState.BIDDING
        if not ctx.state.current_auction().is_over:
            return MachineState.BIDDING
        ctx.close_simultaneous_group()
        ctx.add_system_action(HydratedReveal, reveals_info=True)
        return MachineState.REVEALING
