"""Passing: all four players choose their three cards at once; the passes land together."""

from tabletop_hearts.actions.exchange_passes import HydratedExchangePasses
from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.game_state import Ctx, Handler


class Passing(Handler):
    """Every player is active until they have passed; the fourth pass queues the ExchangePasses.

    The passes form one simultaneous group: each player may pass on the state they saw when the
    deal landed, in any order.
    """

    accepts = (ActionType.PASS_CARDS, ActionType.EXCHANGE_PASSES)
    transitions_to = (MachineState.PLAYING,)
    action_targets = {ActionType.PASS_CARDS: (), ActionType.EXCHANGE_PASSES: (MachineState.PLAYING,)}

    def enter(self, ctx: Ctx) -> None:
        """Open the group; everyone is active."""
        ctx.open_simultaneous_group()
        ctx.state.active_player_ids = [player.player_id for player in ctx.state.players]

    def valid_actions_for_player(self, player_id: str, ctx: Ctx) -> list[str]:
        """A player passes once a deal: nothing is left to do for one who has passed."""
        if ctx.state.player(player_id).has_passed:
            return []
        return super().valid_actions_for_player(player_id, ctx)

    def on_action(self, action: object, ctx: Ctx) -> MachineState | None:
        """Wait for every pass; with all in, close the group and queue the exchange; then play."""
        if getattr(action, "type", None) == ActionType.EXCHANGE_PASSES:
            return MachineState.PLAYING
        state = ctx.state
        if all(player.has_passed for player in state.players):
            ctx.close_simultaneous_group()
            state.active_player_ids = []
            ctx.add_system_action(HydratedExchangePasses)
        return None
