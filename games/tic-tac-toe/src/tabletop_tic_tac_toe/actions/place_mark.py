"""PlaceMark: mark an empty square of the board."""

from collections.abc import Sequence
from typing import Literal, Self

from pydantic import JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError
from tabletop.boards import Square

from tabletop_tic_tac_toe.definition.actions import ActionType
from tabletop_tic_tac_toe.model.config import TicTacToeConfig
from tabletop_tic_tac_toe.model.game_state import Ctx, HydratedTicTacToeGameState


class PlaceMark(GameAction):
    """Put your mark on an empty square."""

    type: Literal[ActionType.PLACE_MARK] = ActionType.PLACE_MARK
    """The action tag."""
    player_id: str
    """The acting player."""
    square: Square
    """The square to mark: column ``x`` and row ``y``, each 0 to 2 from the top left."""


class HydratedPlaceMark(PlaceMark, HydratedAction[PlaceMark, HydratedTicTacToeGameState, TicTacToeConfig]):
    """PlaceMark's rules: the square must be on the board and empty."""

    def check(self, ctx: Ctx) -> None:
        if self.square not in ctx.state.board:
            raise IllegalActionError("off-board", f"{self.square.key} is not on the board", path="square")
        if ctx.state.board[self.square] is not None:
            raise IllegalActionError("square-taken", f"{self.square.key} is already marked", path="square")

    def apply(self, ctx: Ctx) -> None:
        ctx.state.board[self.square] = self.player_id

    @classmethod
    def enumerate(cls, state: HydratedTicTacToeGameState, player_id: str) -> Sequence[Self]:
        return cls.candidates(state, player_id, "square", state.board.empty_cells())

    @classmethod
    def action_space(cls, game: Game[TicTacToeConfig]) -> list[dict[str, JsonValue]]:
        return [{"square": {"x": x, "y": y}} for y in range(3) for x in range(3)]
