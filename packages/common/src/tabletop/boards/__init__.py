"""Graphs for boards: coordinates, square and hex grids, patterns, searches, and boards in state.

- Coordinates: :class:`Square` (rectilinear ``x, y``), :class:`Hex` (axial ``q, r``),
  :class:`Cube` and :class:`Offset`; directions :class:`SquareDirection`,
  :class:`PointyHexDirection`, :class:`FlatHexDirection`; drawing with :class:`HexLayout`.
- Patterns: :func:`hex_ring`, :func:`hex_spiral`, :func:`hex_line`, :func:`hex_ray`,
  :func:`hex_rectangle`, :func:`hex_parallelogram`, :func:`rectangle`, :func:`square_line`,
  :func:`square_ray`.
- Searches over any adjacency: :func:`breadth_first`, :func:`shortest_path`,
  :func:`shortest_path_to`, :func:`connected_regions`.
- Models that live in a game state: :class:`SquareBoard`, :class:`HexBoard`, :class:`NodeSet`
  (a hydrated state holds :class:`HydratedSquareBoard` / :class:`HydratedHexBoard`).

Example:
    >>> from tabletop.boards import SquareBoard
    >>> board = SquareBoard[str](width=3, height=3)
    >>> board.set(1, 1, "X")
    >>> [(square.x, square.y) for square in board.neighbours(board.squares()[0], diagonal=True)]
    [(1, 0), (1, 1), (0, 1)]
"""

from tabletop.boards._coordinates import Cube, Hex, Offset, OffsetLayout, Square
from tabletop.boards._directions import FlatHexDirection, HexDirection, PointyHexDirection, SquareDirection
from tabletop.boards._graph import breadth_first, connected_regions, shortest_path, shortest_path_to
from tabletop.boards._hex import HexLayout, HexOrientation, round_hex
from tabletop.boards._hex_board import HexBoard, HydratedHexBoard
from tabletop.boards._node_set import NodeSet
from tabletop.boards._patterns import (
    hex_line,
    hex_parallelogram,
    hex_ray,
    hex_rectangle,
    hex_ring,
    hex_spiral,
    rectangle,
    square_line,
    square_ray,
)
from tabletop.boards._square_board import HydratedSquareBoard, SquareBoard

__all__ = [
    "Cube",
    "FlatHexDirection",
    "Hex",
    "HexBoard",
    "HexDirection",
    "HexLayout",
    "HexOrientation",
    "HydratedHexBoard",
    "HydratedSquareBoard",
    "NodeSet",
    "Offset",
    "OffsetLayout",
    "PointyHexDirection",
    "Square",
    "SquareBoard",
    "SquareDirection",
    "breadth_first",
    "connected_regions",
    "hex_line",
    "hex_parallelogram",
    "hex_ray",
    "hex_rectangle",
    "hex_ring",
    "hex_spiral",
    "rectangle",
    "round_hex",
    "shortest_path",
    "shortest_path_to",
    "square_line",
    "square_ray",
]
