"""Dealing: nobody acts while the queued Deal shuffles and deals the cards."""

from tabletop_hearts.actions.deal import HydratedDeal
from tabletop_hearts.components.cards import PassDirection
from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.game_state import Ctx, Handler


class Dealing(Handler):
    """Queues the system's Deal; then the pass, or the play on a deal without a pass."""

    accepts = (ActionType.DEAL,)
    transitions_to = (MachineState.PASSING, MachineState.PLAYING)

    def enter(self, ctx: Ctx) -> None:
        """Nobody may act while the cards are dealt."""
        ctx.state.active_player_ids = []
        ctx.add_system_action(HydratedDeal)

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        """Pass first unless this deal's direction is none."""
        if ctx.state.pass_direction is PassDirection.NONE:
            return MachineState.PLAYING
        return MachineState.PASSING
