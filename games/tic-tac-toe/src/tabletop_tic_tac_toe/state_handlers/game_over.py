"""GameOver: settle the result."""

from tabletop_tic_tac_toe.model.game_state import Ctx, Handler


class GameOver(Handler):
    """Whoever has three in a line wins; a full board without one is a draw. Nobody acts any more."""

    def enter(self, ctx: Ctx) -> None:
        winner = ctx.state.winner()
        ctx.end_game([winner] if winner is not None else [])
