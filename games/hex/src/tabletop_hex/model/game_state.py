"""Hex's state, its queries, and its initializer."""

from pydantic import Field
from tabletop import GameState, Hydrated, MachineContext, StateHandler
from tabletop.boards import Hex, HexBoard, HydratedHexBoard

from tabletop_hex.components.connection import winning_chain
from tabletop_hex.components.sides import SEAT_SIDES
from tabletop_hex.definition.states import MachineState
from tabletop_hex.model.config import HexConfig
from tabletop_hex.model.player_state import HexPlayerState


class HexGameState(GameState[HexPlayerState, MachineState]):
    """Hex's state: the board and, once someone has joined their edges, the chain that did."""

    board: HexBoard[str] = Field(default_factory=lambda: HexBoard[str].parallelogram(11, 11))
    """The board: ``q`` is the column, ``r`` the row, both from 0 at the top left corner; a
    stone holds the id of the player who placed it, null is an empty cell."""
    cols: int = 11
    """The board's columns."""
    rows: int = 11
    """The board's rows."""
    winning_chain: list[Hex] = Field(default_factory=list)
    """The connected stones that joined their owner's two edges, row by row; empty until then."""


class HydratedHexGameState(HexGameState, Hydrated[HexGameState]):
    """Hex's state with its queries."""

    def chain_through(self, cell: Hex) -> list[Hex] | None:
        """The group of the stone at ``cell`` if it joins its owner's two edges, else None."""
        owner = self.board.get(cell)
        if owner is None:
            return None
        return winning_chain(self.board, cell, self.player(owner).connects, self.cols, self.rows)

    def winner(self) -> str | None:
        """The owner of the winning chain, once there is one."""
        return None if not self.winning_chain else self.board.get(self.winning_chain[0])


Ctx = MachineContext[HydratedHexGameState, HexConfig]
"""What handlers and actions see: the working state, the game, the PRNG."""
Handler = StateHandler[HydratedHexGameState, HexConfig]
"""The base class of every state handler of Hex."""


def setup(ctx: Ctx) -> None:
    """Lay out the empty board of the config's size; the first seat joins top and bottom."""
    cols, rows = ctx.config.cols, ctx.config.rows
    ctx.state.cols, ctx.state.rows = cols, rows
    ctx.state.board = HydratedHexBoard[str].parallelogram(
        cols, rows
    )  # a hydrated state holds hydrated boards
    for player, connects in zip(ctx.state.players, SEAT_SIDES, strict=False):
        player.connects = connects
