"""GameOver: settle the result."""

from tabletop_hearts.model.game_state import Ctx, Handler


class GameOver(Handler):
    """The lowest total wins (several if tied). Nobody may act any more."""

    def enter(self, ctx: Ctx) -> None:
        ctx.end_game(ctx.state.leaders())
