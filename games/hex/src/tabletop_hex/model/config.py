"""Hex's options: OpenSpiel's ``board_size``, ``num_cols`` and ``num_rows``."""

from pydantic import Field
from tabletop import GameConfig

from tabletop_hex.components.sides import MAX_SIDE, MIN_SIDE


class HexConfig(GameConfig):
    """The board's size, as OpenSpiel's ``hex`` takes it (11 x 11 by default)."""

    board_size: int = Field(default=11, ge=MIN_SIDE, le=MAX_SIDE)
    """The columns and rows of the board, unless ``num_cols`` or ``num_rows`` says otherwise."""
    num_cols: int | None = Field(default=None, ge=MIN_SIDE, le=MAX_SIDE)
    """The columns (the first player's edges are this long); null: ``board_size``."""
    num_rows: int | None = Field(default=None, ge=MIN_SIDE, le=MAX_SIDE)
    """The rows (the second player's edges are this long); null: ``board_size``."""

    @property
    def cols(self) -> int:
        """The number of columns the board has."""
        return self.board_size if self.num_cols is None else self.num_cols

    @property
    def rows(self) -> int:
        """The number of rows the board has."""
        return self.board_size if self.num_rows is None else self.num_rows
