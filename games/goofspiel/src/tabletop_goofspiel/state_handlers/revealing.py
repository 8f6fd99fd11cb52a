"""Revealing: nobody acts while the queued Reveal shows the bids and awards the prize."""

from tabletop import StateHandler

from tabletop_goofspiel.definition.actions import ActionType
from tabletop_goofspiel.definition.states import MachineState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState


class Revealing(StateHandler[HydratedGoofspielGameState, GoofspielConfig]):
    """Accepts only the system's Reveal; then the next round, or the end once the prizes run out."""

    accepts = (ActionType.REVEAL,)
    transitions_to = (MachineState.BIDDING, MachineState.GAME_OVER)

    def enter(self, ctx: Ctx) -> None:
        """Nobody may act until the bids are revealed."""
        ctx.state.active_player_ids = []

    def on_action(self, action: object, ctx: Ctx) -> MachineState:
        """Another round while prizes are left (the hands are not spent); otherwise the game is over."""
        return MachineState.BIDDING if ctx.state.prizes_left else MachineState.GAME_OVER
