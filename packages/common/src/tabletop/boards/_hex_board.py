"""A hex-grid board of any shape that lives in a game state.

The board's cells are the keys of ``cells`` (``"q,r"`` axial coordinates), so the shape is
whatever set of hexes it was built from: :meth:`HexBoard.hexagon`, or :meth:`HexBoard.of` any
hexes (see :func:`hex_spiral`, :func:`hex_rectangle`). Queries and cell updates live on the plain
model; a hydrated state holds a :class:`HydratedHexBoard`, which adds graph searches.

Example:
    >>> from tabletop.boards import Hex, HexBoard
    >>> board = HexBoard[str].hexagon(2)
    >>> len(board.hexes()), board.get(Hex(q=0, r=0))
    (19, None)
    >>> board.set(Hex(q=0, r=0), "red")
    >>> len(board.neighbours(Hex(q=2, r=0))), board.contains(Hex(q=3, r=0))
    (3, False)
    >>> board.model_dump()["cells"]["0,0"]
    'red'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Annotated, Generic, Self, TypeVar

from pydantic import StringConstraints

from tabletop._hydration import Hydrated
from tabletop._model import Model
from tabletop.boards._coordinates import KEY_PATTERN, Hex
from tabletop.boards._graph import breadth_first, connected_regions, shortest_path
from tabletop.boards._hex import HexOrientation
from tabletop.boards._patterns import hex_parallelogram, hex_spiral, segments

__all__ = ["HexBoard", "HydratedHexBoard"]

CellT = TypeVar("CellT")

HexKey = Annotated[str, StringConstraints(pattern=KEY_PATTERN)]
"""A hex's canonical ``"q,r"`` key."""

_LINE_DIRECTIONS = (0, 5, 4)  # +q, +r, -q+r: one of each opposite pair (E, SE, SW on pointy tops)


def _stepper(direction: int) -> Callable[[Hex], Hex]:
    return lambda hex_: hex_.step(direction)


class HexBoard(Model, Generic[CellT]):
    """A board of hex cells of any shape; each cell is empty (null) or holds a value."""

    # CellT must be JSON-Schema compatible.

    orientation: HexOrientation = HexOrientation.POINTY
    """How clients draw the board: pointy or flat tops (coordinates do not depend on it)."""
    cells: dict[HexKey, CellT | None]
    """Every cell of the board by its axial "q,r" key; null is an empty cell."""

    @classmethod
    def of(cls, hexes: Iterable[Hex], orientation: HexOrientation = HexOrientation.POINTY) -> Self:
        """An empty board made of ``hexes``."""
        return cls(orientation=orientation, cells=dict.fromkeys((hex_.key for hex_ in hexes), None))

    @classmethod
    def hexagon(cls, radius: int, orientation: HexOrientation = HexOrientation.POINTY) -> Self:
        """An empty hexagonal board of every hex within ``radius`` of ``(0, 0)``."""
        return cls.of(hex_spiral(Hex(q=0, r=0), radius), orientation)

    @classmethod
    def parallelogram(cls, cols: int, rows: int, orientation: HexOrientation = HexOrientation.POINTY) -> Self:
        """An empty ``cols`` x ``rows`` parallelogram (a rhombus if square) of :func:`hex_parallelogram`.

        The board of Hex: rows ``r`` top to bottom, columns ``q`` left to right, each cell
        ``(q, r)`` touching ``(q±1, r)``, ``(q, r±1)``, ``(q+1, r-1)`` and ``(q-1, r+1)``.

        Raises:
            ValueError: ``cols`` or ``rows`` is less than 1.
        """
        if cols < 1 or rows < 1:
            msg = f"a parallelogram needs at least one column and one row, not {cols} x {rows}"
            raise ValueError(msg)
        return cls.of(hex_parallelogram(cols, rows), orientation)

    def contains(self, hex_: Hex) -> bool:
        """True if ``hex_`` is a cell of the board."""
        return hex_.key in self.cells

    def _key(self, hex_: Hex) -> str:
        key = hex_.key
        if key not in self.cells:
            msg = f"hex ({hex_.q}, {hex_.r}) is not on the board"
            raise IndexError(msg)
        return key

    def get(self, hex_: Hex) -> CellT | None:
        """The value at ``hex_``, None if empty.

        Raises:
            IndexError: ``hex_`` is not on the board.
        """
        return self.cells[self._key(hex_)]

    def set(self, hex_: Hex, value: CellT | None) -> None:
        """Put ``value`` at ``hex_`` (None empties the cell).

        Raises:
            IndexError: ``hex_`` is not on the board.
        """
        self.cells[self._key(hex_)] = value

    def __getitem__(self, hex_: Hex) -> CellT | None:
        return self.get(hex_)

    def __setitem__(self, hex_: Hex, value: CellT | None) -> None:
        self.set(hex_, value)

    def __contains__(self, hex_: object) -> bool:
        return isinstance(hex_, Hex) and self.contains(hex_)

    def hexes(self) -> list[Hex]:
        """Every cell of the board, in ``cells`` order."""
        return [Hex.parse(key) for key in self.cells]

    def empty_cells(self) -> list[Hex]:
        """The empty cells, in ``cells`` order."""
        return [Hex.parse(key) for key, value in self.cells.items() if value is None]

    def positions_of(self, value: CellT) -> list[Hex]:
        """The cells holding ``value``, in ``cells`` order."""
        return [Hex.parse(key) for key, cell in self.cells.items() if cell == value]

    def is_full(self) -> bool:
        """True if no cell is empty."""
        return all(value is not None for value in self.cells.values())

    def neighbours(self, hex_: Hex) -> list[Hex]:
        """The on-board neighbours of ``hex_``, in axial direction order."""
        return [neighbour for neighbour in hex_.neighbours() if neighbour.key in self.cells]

    def lines(self, length: int) -> list[list[Hex]]:
        """Every straight run of ``length`` cells along the three hex axes.

        Raises:
            ValueError: ``length`` is less than 1.
        """
        steps = [_stepper(direction) for direction in _LINE_DIRECTIONS]
        return segments(self.hexes(), self.contains, steps, length)

    def values(self, hexes: Iterable[Hex]) -> list[CellT | None]:
        """The values at ``hexes``, in order."""
        return [self.get(hex_) for hex_ in hexes]

    def find_line(self, length: int) -> list[Hex] | None:
        """The first of :meth:`lines` whose cells all hold one same value (not empty), or None."""
        for line in self.lines(length):
            first = self.get(line[0])
            if first is not None and all(self.get(hex_) == first for hex_ in line[1:]):
                return line
        return None


class HydratedHexBoard(HexBoard[CellT], Hydrated[HexBoard[CellT]], Generic[CellT]):
    """A hex board with graph searches; a hydrated state's ``HexBoard`` field holds one.

    ``passable`` tells which cells a path may enter (default: every cell); the start hex itself
    is always allowed.

    Example:
        >>> from tabletop.boards import Hex, HydratedHexBoard
        >>> board = HydratedHexBoard[str].hexagon(1)
        >>> board.set(Hex(q=1, r=-1), "wall")
        >>> path = board.shortest_path(Hex(q=0, r=0), Hex(q=1, r=-1), passable=lambda v: v is None)
        >>> path is None
        True
    """

    def _steps(self, passable: Callable[[CellT | None], bool] | None) -> Callable[[Hex], list[Hex]]:
        def steps(hex_: Hex) -> list[Hex]:
            around = self.neighbours(hex_)
            return around if passable is None else [n for n in around if passable(self.cells[n.key])]

        return steps

    def reachable(
        self,
        start: Hex,
        *,
        passable: Callable[[CellT | None], bool] | None = None,
        max_steps: int | None = None,
    ) -> dict[Hex, int]:
        """The hexes reachable from ``start`` with their distances, in breadth-first order."""
        return breadth_first(start, self._steps(passable), max_depth=max_steps)

    def shortest_path(
        self,
        start: Hex,
        goal: Hex,
        *,
        passable: Callable[[CellT | None], bool] | None = None,
    ) -> list[Hex] | None:
        """A fewest-steps path from ``start`` to ``goal`` (both included), or None."""
        return shortest_path(start, goal, self._steps(passable))

    def regions(self, predicate: Callable[[CellT | None], bool]) -> list[list[Hex]]:
        """The connected groups of cells whose value satisfies ``predicate``."""
        members = [Hex.parse(key) for key, value in self.cells.items() if predicate(value)]
        return connected_regions(members, self.neighbours)
