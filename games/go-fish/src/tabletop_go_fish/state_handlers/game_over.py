"""GameOver: settle the result."""

from tabletop import TerminalHandler

from tabletop_go_fish.model.config import GoFishConfig
from tabletop_go_fish.model.game_state import Ctx, HydratedGoFishGameState


class GameOver(TerminalHandler[HydratedGoFishGameState, GoFishConfig]):
    """The player with the most books wins; ties are draws (no winner). Nobody may act any more."""

    def enter(self, ctx: Ctx) -> None:
        leaders = ctx.state.leaders()
        ctx.end_game(leaders if len(leaders) == 1 else [])
