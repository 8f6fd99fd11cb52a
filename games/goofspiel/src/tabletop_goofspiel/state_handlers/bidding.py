"""Bidding: a prize is turned up and both players bid a card for it, in secret, in either order."""

from tabletop import StateHandler
from tabletop.components import HydratedSealedBidAuction

from tabletop_goofspiel.actions.reveal import HydratedReveal
from tabletop_goofspiel.definition.actions import ActionType
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState


class Bidding(StateHandler[HydratedGoofspielGameState, GoofspielConfig]):
    """Both players are active until both have bid; then a Reveal resolves the round.

    A round's bids form one simultaneous group: both players may bid on the state they saw when
    the prize came up, in either order (a bid naming the group may lag behind the action count).
    """

    accepts = (ActionType.BID,)
    transitions_to = (MachineState.BIDDING, MachineState.REVEALING)

    def enter(self, ctx: Ctx) -> None:
        """Open a round if none is open: turn up the next prize and make both players active.

        Opens a simultaneous group for the round's bids when none is open (one ``rand_id()``).
        Re-entered after the first bid of a round, it leaves the open round and group alone.
        """
        state = ctx.state
        if state.simultaneous_group is None:
            ctx.open_simultaneous_group()
        if state.auction is not None:
            return
        player_ids = [player.player_id for player in state.players]
        state.prize = state.prize_deck.pop(0)
        state.auction = HydratedSealedBidAuction(participants=player_ids)
        state.active_player_ids = player_ids

    def valid_actions_for_player(self, player_id: str, ctx: Ctx) -> list[str]:
        """A player may bid once a round: nothing is left to do for one who has bid."""
        auction = ctx.state.auction
        if auction is None or auction.has_bid(player_id):
            return []
        return super().valid_actions_for_player(player_id, ctx)

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        """Wait for the other bid; with both in, close the group, queue the Reveal, move to Revealing."""
        if not ctx.state.current_auction().is_over:
            return MachineState.BIDDING
        ctx.close_simultaneous_group()
        ctx.add_system_action(HydratedReveal, reveals_info=True)
        return MachineState.REVEALING
