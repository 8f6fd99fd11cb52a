"""GameOver: settle the result."""

from tabletop import TerminalHandler

from tabletop_tic_tac_toe.model.config import TicTacToeConfig
from tabletop_tic_tac_toe.model.game_state import Ctx, HydratedTicTacToeGameState


class GameOver(TerminalHandler[HydratedTicTacToeGameState, TicTacToeConfig]):
    """Whoever has three in a line wins; a full board without one is a draw."""

    def enter(self, ctx: Ctx) -> None:
        winner = ctx.state.winner()
        ctx.end_game([winner] if winner is not None else [])
