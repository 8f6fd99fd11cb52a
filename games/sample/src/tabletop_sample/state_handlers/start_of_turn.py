"""StartOfTurn: the next player gets their turn and 5 to spend."""

from tabletop import StateHandler

from tabletop_sample.components.colors import AMOUNT_PER_TURN
from tabletop_sample.definition.actions import ActionType
from tabletop_sample.definition.states import MachineState
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import Ctx, HydratedSampleGameState


class StartOfTurn(StateHandler[HydratedSampleGameState, SampleConfig]):
    """One action per turn: add an amount or pass; the game ends at the maximum total."""

    accepts = (ActionType.ADD_AMOUNT, ActionType.PASS)
    transitions_to = (MachineState.START_OF_TURN, MachineState.END_OF_GAME)

    def enter(self, ctx: Ctx) -> None:
        player_id = ctx.start_next_turn()  # the next player's turn; they alone are active
        ctx.state.player(player_id).amount = AMOUNT_PER_TURN

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        if ctx.state.total >= ctx.state.max_total:
            return MachineState.END_OF_GAME
        return MachineState.START_OF_TURN
