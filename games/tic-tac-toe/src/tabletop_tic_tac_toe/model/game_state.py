"""Tic-tac-toe's state and its queries."""

from pydantic import Field
from tabletop import GameState, Hydrated, MachineContext, StateHandler
from tabletop.boards import SquareBoard

from tabletop_tic_tac_toe.definition.states import MachineState
from tabletop_tic_tac_toe.model.config import TicTacToeConfig
from tabletop_tic_tac_toe.model.player_state import TicTacToePlayerState


class TicTacToeGameState(GameState[TicTacToePlayerState, MachineState]):
    """Tic-tac-toe's state: the board."""

    board: SquareBoard[str] = Field(default_factory=lambda: SquareBoard[str](width=3, height=3))
    """The 3x3 board; a marked square holds the id of the player who marked it."""


class HydratedTicTacToeGameState(TicTacToeGameState, Hydrated[TicTacToeGameState]):
    """Tic-tac-toe's state with its queries."""

    def winner(self) -> str | None:
        """The player with three marks in a row, a column or a diagonal, if any."""
        line = self.board.find_line(3)
        return None if line is None else self.board[line[0]]


Ctx = MachineContext[HydratedTicTacToeGameState, TicTacToeConfig]
Handler = StateHandler[HydratedTicTacToeGameState, TicTacToeConfig]
