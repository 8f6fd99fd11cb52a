"""PlaceStone: put a stone of your own on an empty cell."""

from collections.abc import Sequence
from typing import Literal, Self

from pydantic import JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError, Model
from tabletop.boards import Hex

from tabletop_hex.components.connection import adjacency
from tabletop_hex.components.sides import cell_name
from tabletop_hex.definition.actions import ActionType
from tabletop_hex.model.config import HexConfig
from tabletop_hex.model.game_state import Ctx, HydratedHexGameState

_OFF_BOARD = object()
"""What a cell outside the board holds (it is no key of the board's cells)."""


class PlaceStoneResult(Model):
    """What a stone did."""

    cell_name: str
    """The cell's name: its column's letter and row number, e.g. ``"c3"``."""
    won: bool
    """True if this stone joined its player's two edges (the game is over)."""


class PlaceStone(GameAction):
    """Put one of your stones on an empty cell."""

    type: Literal[ActionType.PLACE_STONE] = ActionType.PLACE_STONE
    """The action tag."""
    player_id: str
    """The acting player."""
    cell: Hex
    """The cell: column ``q`` and row ``r``, each from 0 at the board's top left corner."""
    metadata: PlaceStoneResult | None = None
    """What the stone did, set when it is applied."""


class HydratedPlaceStone(PlaceStone, HydratedAction[PlaceStone, HydratedHexGameState, HexConfig]):
    """PlaceStone's rules: the cell must be on the board and empty."""

    def check(self, ctx: Ctx) -> None:
        cells = ctx.state.board.cells
        owner = cells.get(self.cell.key, _OFF_BOARD)
        if owner is _OFF_BOARD:
            raise IllegalActionError(
                "off-board", f"({self.cell.q}, {self.cell.r}) is not on the board", path="cell"
            )
        if owner is not None:
            raise IllegalActionError(
                "cell-taken", f"{cell_name(self.cell)} already holds a stone", path="cell"
            )

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        state.board[self.cell] = self.player_id
        chain = state.chain_through(self.cell)
        if chain is not None:
            state.winning_chain = chain
        self.metadata = PlaceStoneResult(cell_name=cell_name(self.cell), won=chain is not None)

    @classmethod
    def enumerate(cls, state: HydratedHexGameState, player_id: str) -> Sequence[Self]:
        # The board's shared hexes (no parsing of keys); a Hex instance is taken as it is.
        hexes = adjacency(state.cols, state.rows).hexes
        empty = [hexes[key] for key, owner in state.board.cells.items() if owner is None]
        return cls.candidates(state, player_id, "cell", empty)

    @classmethod
    def action_space(cls, game: Game[HexConfig]) -> list[dict[str, JsonValue]]:
        """Every cell, numbered as OpenSpiel numbers them: ``r * cols + q``."""
        cols, rows = game.config.cols, game.config.rows
        return [{"cell": {"q": q, "r": r}} for r in range(rows) for q in range(cols)]
