"""RoundEnd: nobody acts while the queued ScoreRound ranks the artists and buys the paintings."""

from tabletop_gallery.actions.score_round import HydratedScoreRound
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.game_state import Ctx, Handler


class RoundEnd(Handler):
    """Scores the round; then the next round's deal, or the end after the fourth."""

    accepts = (ActionType.SCORE_ROUND,)
    transitions_to = (MachineState.DEALING, MachineState.GAME_OVER)

    def enter(self, ctx: Ctx) -> None:
        ctx.state.active_player_ids = []
        ctx.add_system_action(HydratedScoreRound)

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        return MachineState.GAME_OVER if ctx.state.rounds.rounds_left == 0 else MachineState.DEALING
