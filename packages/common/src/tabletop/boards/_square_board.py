"""A rectangular square-grid board that lives in a game state.

Declare it as a plain field, e.g. ``board: SquareBoard[str] = Field(default_factory=lambda:
SquareBoard[str](width=3, height=3))``; a hydrated state holds a :class:`HydratedSquareBoard`.
Queries and cell updates live on the plain model, so game code can use them on a field declared
as ``SquareBoard[...]``; the hydrated class adds graph searches. Model docstrings stay short:
they become schema descriptions.

Example:
    >>> from tabletop.boards import SquareBoard
    >>> board = SquareBoard[str](width=3, height=3)
    >>> for x in range(3):
    ...     board.set(x, 1, "X")
    >>> board.get(0, 1), board.get(0, 0), len(board.empty_cells())
    ('X', None, 6)
    >>> line = board.find_line(3)  # a full row, column or diagonal of one value
    >>> line is not None and board[line[0]]
    'X'
    >>> len(board.lines(3)), board.is_full()
    (8, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache, partial
from typing import Any, Generic, Self, TypeVar

from pydantic import Field, model_validator

from tabletop._copier import only_checks
from tabletop._hydration import Hydrated
from tabletop._model import Model
from tabletop.boards._coordinates import Square
from tabletop.boards._directions import SquareDirection
from tabletop.boards._graph import breadth_first, connected_regions, shortest_path
from tabletop.boards._patterns import segments

__all__ = ["HydratedSquareBoard", "SquareBoard"]

CellT = TypeVar("CellT")

_LINE_DIRECTIONS = (SquareDirection.E, SquareDirection.S, SquareDirection.SE, SquareDirection.SW)


def _empty_rows(data: dict[str, Any]) -> list[list[Any]]:
    """Default cells: every cell empty (needs the already validated width and height)."""
    width, height = data.get("width"), data.get("height")
    if not isinstance(width, int) or not isinstance(height, int):
        return []  # width or height failed validation; that error is reported instead
    return [[None] * width for _ in range(height)]


def _stepper(direction: SquareDirection) -> Callable[[Square], Square]:
    return lambda square: square.step(direction)


@lru_cache(maxsize=256)
def _grid(width: int, height: int) -> tuple[tuple[Square, ...], ...]:
    """The squares of a board shape, row by row, built once (squares are immutable, so shared)."""
    return tuple(tuple(Square(x=x, y=y) for x in range(width)) for y in range(height))


@lru_cache(maxsize=256)
def _line_cells(
    width: int, height: int, length: int, diagonal: bool
) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:func:`_lines` as ``(row, column)`` pairs, for reading cells without attribute lookups."""
    lines = _lines(width, height, length, diagonal)
    return tuple(tuple((square.y, square.x) for square in line) for line in lines)


_UNROLLED_CELLS = 4096
"""Above this many line cells, :func:`_line_finder` loops instead of unrolling."""


@lru_cache(maxsize=256)
def _line_finder(width: int, height: int, length: int, diagonal: bool) -> Callable[[list[list[Any]]], int]:
    """A function giving the number of the first line of one value in a board's cells, or -1.

    For a board shape with few lines (tic-tac-toe's 8, gomoku's 15x15 too) the comparisons are
    unrolled into one compiled function; a bigger shape loops over :func:`_line_cells`.
    """
    lines = _line_cells(width, height, length, diagonal)
    if sum(len(line) for line in lines) > _UNROLLED_CELLS:
        return partial(_find_line_looping, lines)
    body = ["def find(cells):"]
    rows = sorted({y for line in lines for y, _ in line})
    body += [f"    r{y} = cells[{y}]" for y in rows]
    for number, line in enumerate(lines):
        (y, x), rest = line[0], line[1:]
        same = " and ".join(f"r{y2}[{x2}] == v" for y2, x2 in rest) or "True"
        body += [f"    v = r{y}[{x}]", f"    if v is not None and {same}:", f"        return {number}"]
    body.append("    return -1")
    scope: dict[str, Any] = {}
    exec("\n".join(body), scope)  # built from integer coordinates only
    function: Callable[[list[list[Any]]], int] = scope["find"]
    return function


def _find_line_looping(lines: tuple[tuple[tuple[int, int], ...], ...], cells: list[list[Any]]) -> int:
    for number, line in enumerate(lines):
        y, x = line[0]
        first = cells[y][x]
        if first is None:
            continue
        for y, x in line:
            if cells[y][x] != first:
                break
        else:
            return number
    return -1


@lru_cache(maxsize=256)
def _lines(width: int, height: int, length: int, diagonal: bool) -> tuple[tuple[Square, ...], ...]:
    """The lines of a board shape, computed once (squares are immutable, so they can be shared)."""
    directions = _LINE_DIRECTIONS if diagonal else _LINE_DIRECTIONS[:2]
    squares = [Square(x=x, y=y) for y in range(height) for x in range(width)]

    def contains(square: Square) -> bool:
        return 0 <= square.x < width and 0 <= square.y < height

    runs = segments(squares, contains, [_stepper(direction) for direction in directions], length)
    return tuple(tuple(run) for run in runs)


class SquareBoard(Model, Generic[CellT]):
    """A width x height grid of cells addressed by column x and row y (row 0 at the top).

    Each cell is empty (null) or holds a value.
    """

    # CellT must be JSON-Schema compatible. Methods take (x, y) ints; ``board[square]`` takes a Square.

    width: int = Field(ge=1)
    """Number of columns."""
    height: int = Field(ge=1)
    """Number of rows."""
    cells: list[list[CellT | None]] = Field(default_factory=_empty_rows)
    """Rows from top to bottom, each its cells from left to right; null is an empty cell."""

    @model_validator(mode="after")
    def _cells_fit(self) -> Self:
        if len(self.cells) != self.height or any(len(row) != self.width for row in self.cells):
            msg = f"cells must be {self.height} rows of {self.width} cells"
            raise ValueError(msg)
        return self

    def contains(self, x: int, y: int) -> bool:
        """True if ``(x, y)`` is on the board."""
        return 0 <= x < self.width and 0 <= y < self.height

    def _check(self, x: int, y: int) -> None:
        if not self.contains(x, y):
            msg = f"({x}, {y}) is off the {self.width}x{self.height} board"
            raise IndexError(msg)

    def get(self, x: int, y: int) -> CellT | None:
        """The value at ``(x, y)``, None if empty.

        Raises:
            IndexError: ``(x, y)`` is off the board.
        """
        self._check(x, y)
        return self.cells[y][x]

    def set(self, x: int, y: int, value: CellT | None) -> None:
        """Put ``value`` at ``(x, y)`` (None empties the cell).

        Raises:
            IndexError: ``(x, y)`` is off the board.
        """
        self._check(x, y)
        self.cells[y][x] = value

    def __getitem__(self, square: Square) -> CellT | None:
        x, y = square.x, square.y
        if 0 <= x < self.width and 0 <= y < self.height:
            return self.cells[y][x]
        return self.get(x, y)  # raises

    def __setitem__(self, square: Square, value: CellT | None) -> None:
        x, y = square.x, square.y
        if 0 <= x < self.width and 0 <= y < self.height:
            self.cells[y][x] = value
        else:
            self.set(x, y, value)  # raises

    def __contains__(self, square: object) -> bool:
        return isinstance(square, Square) and 0 <= square.x < self.width and 0 <= square.y < self.height

    def squares(self) -> list[Square]:
        """Every square of the board, row by row."""
        return [square for row in _grid(self.width, self.height) for square in row]

    def empty_cells(self) -> list[Square]:
        """The empty squares, row by row."""
        grid = _grid(self.width, self.height)
        return [grid[y][x] for y, row in enumerate(self.cells) for x, cell in enumerate(row) if cell is None]

    def positions_of(self, value: CellT) -> list[Square]:
        """The squares holding ``value``, row by row."""
        grid = _grid(self.width, self.height)
        return [grid[y][x] for y, row in enumerate(self.cells) for x, cell in enumerate(row) if cell == value]

    def is_full(self) -> bool:
        """True if no cell is empty."""
        for row in self.cells:  # noqa: SIM110 - no generator: a per-action query
            if None in row:
                return False
        return True

    def neighbours(self, square: Square, *, diagonal: bool = False) -> list[Square]:
        """The on-board neighbours of ``square``: orthogonal (N, E, S, W), or all 8 if ``diagonal``."""
        return [n for n in square.neighbours(diagonal=diagonal) if self.contains(n.x, n.y)]

    def lines(self, length: int, *, diagonal: bool = True) -> list[list[Square]]:
        """Every run of ``length`` squares along a row, a column and (if ``diagonal``) a diagonal.

        Rows come first (left to right), then columns (top to bottom), then both diagonals.

        Raises:
            ValueError: ``length`` is less than 1.
        """
        return [list(line) for line in _lines(self.width, self.height, length, diagonal)]

    def values(self, squares: Iterable[Square]) -> list[CellT | None]:
        """The values at ``squares``, in order."""
        return [self.get(square.x, square.y) for square in squares]

    def find_line(self, length: int, *, diagonal: bool = True) -> list[Square] | None:
        """The first of :meth:`lines` whose cells all hold one same value (not empty), or None."""
        width, height = self.width, self.height
        number = _line_finder(width, height, length, diagonal)(self.cells)
        return None if number < 0 else list(_lines(width, height, length, diagonal)[number])


only_checks(SquareBoard, "_cells_fit")


class HydratedSquareBoard(SquareBoard[CellT], Hydrated[SquareBoard[CellT]], Generic[CellT]):
    """A square board with graph searches; a hydrated state's ``SquareBoard`` field holds one.

    ``passable`` tells which cells a path may enter (default: every cell); the start square
    itself is always allowed.

    Example:
        >>> from tabletop.boards import HydratedSquareBoard, Square
        >>> board = HydratedSquareBoard[str](width=3, height=3)
        >>> board.set(1, 0, "#")
        >>> board.set(1, 1, "#")
        >>> path = board.shortest_path(Square(x=0, y=0), Square(x=2, y=0), passable=lambda v: v is None)
        >>> [(s.x, s.y) for s in path]
        [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)]
    """

    def _steps(
        self, passable: Callable[[CellT | None], bool] | None, diagonal: bool
    ) -> Callable[[Square], list[Square]]:
        def steps(square: Square) -> list[Square]:
            around = self.neighbours(square, diagonal=diagonal)
            return around if passable is None else [n for n in around if passable(self[n])]

        return steps

    def reachable(
        self,
        start: Square,
        *,
        passable: Callable[[CellT | None], bool] | None = None,
        diagonal: bool = False,
        max_steps: int | None = None,
    ) -> dict[Square, int]:
        """The squares reachable from ``start`` with their distances, in breadth-first order."""
        return breadth_first(start, self._steps(passable, diagonal), max_depth=max_steps)

    def shortest_path(
        self,
        start: Square,
        goal: Square,
        *,
        passable: Callable[[CellT | None], bool] | None = None,
        diagonal: bool = False,
    ) -> list[Square] | None:
        """A fewest-steps path from ``start`` to ``goal`` (both included), or None."""
        return shortest_path(start, goal, self._steps(passable, diagonal))

    def regions(
        self, predicate: Callable[[CellT | None], bool], *, diagonal: bool = False
    ) -> list[list[Square]]:
        """The connected groups of squares whose value satisfies ``predicate`` (e.g. Go groups)."""
        members = [square for square in self.squares() if predicate(self[square])]
        return connected_regions(members, lambda square: self.neighbours(square, diagonal=diagonal))
