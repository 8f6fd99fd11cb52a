"""Playing: thirteen tricks; the holder of the two of clubs leads the first, each winner the next."""

from tabletop_hearts.components.cards import TWO_OF_CLUBS
from tabletop_hearts.definition.actions import ActionType
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.game_state import Ctx, Handler


class Playing(Handler):
    """The player on turn plays a card; after the deal, the next deal or the end of the game."""

    accepts = (ActionType.PLAY_CARD,)
    transitions_to = (MachineState.DEALING, MachineState.GAME_OVER)

    def enter(self, ctx: Ctx) -> None:
        """The holder of the two of clubs leads."""
        holder = ctx.state.holder_of(TWO_OF_CLUBS)
        assert holder is not None
        ctx.start_turn_of(holder)

    def on_action(self, action: object, ctx: Ctx) -> MachineState | None:
        """Next player in turn order; after a trick its winner; after the deal, deal again or end."""
        state = ctx.state
        if state.trick:
            ctx.start_next_turn()
            return None
        if state.cards_played < 52:
            ctx.start_turn_of(state.tricks[-1].winner_id)
            return None
        if any(player.score >= ctx.config.target_score for player in state.players):
            return MachineState.GAME_OVER
        return MachineState.DEALING
