"""Dealing: nobody acts while 52 chance points deal the cards, one at a time."""

from tabletop_hearts.components.cards import PassDirection
from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.deal import deal, dealt
from tabletop_hearts.model.game_state import Ctx, Handler


class Dealing(Handler):
    """Queues the deal's DealCard chance points; then the pass, or the play on a deal without one."""

    accepts = (ActionType.DEAL_CARD,)
    transitions_to = (MachineState.PASSING, MachineState.PLAYING)

    def enter(self, ctx: Ctx) -> None:
        """Nobody may act while the cards are dealt."""
        ctx.state.active_player_ids = []
        deal(ctx)

    def on_action(self, action: object, ctx: Ctx) -> MachineState | None:
        """Stay until the last card; then pass first unless this deal's direction is none."""
        if not dealt(ctx):
            return None
        if ctx.state.pass_direction is PassDirection.NONE:
            return MachineState.PLAYING
        return MachineState.PASSING
