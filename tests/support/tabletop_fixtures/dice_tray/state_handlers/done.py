"""Done: the first to reach the target wins."""

from tabletop_fixtures.dice_tray.model.game_state import Ctx, Handler


class Done(Handler):
    """Settle the result; nobody acts any more."""

    def enter(self, ctx: Ctx) -> None:
        ctx.end_game([p.player_id for p in ctx.state.players if p.banked >= ctx.config.target])
