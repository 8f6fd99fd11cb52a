"""GameOver: settle the result."""

from tabletop_backgammon.model.game_state import Ctx, Handler

_POINTS = {"single": 1, "gammon": 2, "backgammon": 3}


class GameOver(Handler):
    """The player who bore off all 15 checkers wins; past the turn limit it is a draw."""

    def enter(self, ctx: Ctx) -> None:
        state = ctx.state
        state.unused = []
        winner = state.winner()
        if winner is None:
            ctx.end_game([])
            return
        kind = state.loss_kind(state.opponent(winner))
        scoring = ctx.config.scoring_type
        state.win_kind = kind
        if scoring == "winloss_scoring":
            state.win_points = 1
        elif scoring == "enable_gammons":
            state.win_points = 1 if kind == "single" else 2
        else:
            state.win_points = _POINTS[kind]
        ctx.end_game([winner])
