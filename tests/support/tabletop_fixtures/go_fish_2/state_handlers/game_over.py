"""GameOver: settle the result."""

from tabletop import TerminalHandler

from tabletop_fixtures.go_fish_2.model.config import GoFishConfig
from tabletop_fixtures.go_fish_2.model.game_state import Ctx, HydratedGoFishGameState


class GameOver(TerminalHandler[HydratedGoFishGameState, GoFishConfig]):
    """The player with the most books wins; ties are draws (no winner). Nobody may act any more."""

    def enter(self, ctx: Ctx) -> None:
        leaders = ctx.state.leaders()
        ctx.end_game(leaders if len(leaders) == 1 else [])
