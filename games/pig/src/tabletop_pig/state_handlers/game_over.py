"""GameOver: settle the result."""

from tabletop_pig.model.game_state import Ctx, Handler


class GameOver(Handler):
    """The player who reached the target wins. Nobody acts any more."""

    def enter(self, ctx: Ctx) -> None:
        winner = ctx.state.winner(ctx.config.target)
        ctx.end_game([winner] if winner is not None else [])
