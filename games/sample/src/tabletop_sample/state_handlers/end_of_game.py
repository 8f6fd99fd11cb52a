"""EndOfGame: settle the result."""

from tabletop import GameResult, TerminalHandler

from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import Ctx, HydratedSampleGameState


class EndOfGame(TerminalHandler[HydratedSampleGameState, SampleConfig]):
    """A single leader wins; a tie for the lead is a draw. Nobody may act any more."""

    def enter(self, ctx: Ctx) -> None:
        state = ctx.state
        leaders = state.leaders()
        state.result = GameResult.WIN if len(leaders) == 1 else GameResult.DRAW
        state.winning_player_ids = leaders if len(leaders) == 1 else []
        state.active_player_ids = []
        ctx.end_turn()
