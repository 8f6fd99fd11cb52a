"""GameOver: settle the result."""

from tabletop import TerminalHandler

from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import Ctx, HydratedGoofspielGameState


class GameOver(TerminalHandler[HydratedGoofspielGameState, GoofspielConfig]):
    """The higher total wins; equal totals are a draw. Nobody may act any more."""

    def enter(self, ctx: Ctx) -> None:
        leaders = ctx.state.leaders()
        ctx.end_game(leaders if len(leaders) == 1 else [])
