"""GameOver: settle the result."""

from tabletop_hex.model.game_state import Ctx, Handler


class GameOver(Handler):
    """The owner of the winning chain wins (Hex has no draws). Nobody acts any more."""

    def enter(self, ctx: Ctx) -> None:
        winner = ctx.state.winner()
        ctx.end_game([winner] if winner is not None else [])
