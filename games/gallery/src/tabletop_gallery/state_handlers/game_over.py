"""GameOver: settle the result."""

from tabletop_gallery.model.game_state import Ctx, Handler


class GameOver(Handler):
    """The richest player wins; several equally rich players share the win. Nobody may act any more."""

    def enter(self, ctx: Ctx) -> None:
        ctx.end_game(ctx.state.leaders())
