"""Who connects what: the first player joins the top and bottom rows, the second the outer columns.

As OpenSpiel's ``hex``: player 0 (black, ``x``) moves first and joins row 0 to the last row;
player 1 (white, ``o``) joins column 0 to the last column. Cells are named as OpenSpiel names
its actions: the column's letter and the row's number from 1 (``"c3"`` is ``q=2, r=2``).
"""

from enum import StrEnum

from tabletop.boards import Hex

MIN_SIDE = 2
"""The fewest columns or rows: OpenSpiel's 1-wide boards end in a position with no move and no winner."""
MAX_SIDE = 26
"""The most columns or rows: one letter names each column."""


class Connects(StrEnum):
    """The pair of opposite edges a player joins to win."""

    TOP_BOTTOM = "top-bottom"
    LEFT_RIGHT = "left-right"


SEAT_SIDES = (Connects.TOP_BOTTOM, Connects.LEFT_RIGHT)
"""What each seat joins, in turn order: the first player top to bottom."""


def cell_name(cell: Hex) -> str:
    """A cell's name: its column's letter and its row's number from 1, e.g. ``"c3"``."""
    return f"{chr(ord('a') + cell.q)}{cell.r + 1}"


def edges_touched(cell: Hex, connects: Connects, cols: int, rows: int) -> tuple[bool, bool]:
    """Whether ``cell`` lies on the first and on the second of the edges ``connects`` names."""
    if connects is Connects.TOP_BOTTOM:
        return cell.r == 0, cell.r == rows - 1
    return cell.q == 0, cell.q == cols - 1
