"""GameOver: settle the result."""

from tabletop_hearts.model.game_state import Ctx, Handler


class GameOver(Handler):
    """Whoever ended the game wins. It accepts nothing: nobody may act any more."""

    def enter(self, ctx: Ctx) -> None:
        ended_by = ctx.state.ended_by
        ctx.end_game([ended_by] if ended_by is not None else [])
