"""Grid coordinates: rectilinear squares, and axial, cube and offset hex coordinates.

Every coordinate is a small frozen model: hashable, comparable by value, and valid in a game state.
Being immutable, a coordinate is shared, not copied, when a model holding it is validated or copied.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Self

from pydantic import model_validator

from tabletop._model import Model
from tabletop.boards._directions import HEX_DELTAS, HexDirection, SquareDirection

__all__ = ["Cube", "Hex", "Offset", "OffsetLayout", "Square"]

_KEY = re.compile(r"^(0|-?[1-9][0-9]*),(0|-?[1-9][0-9]*)$")
KEY_PATTERN = _KEY.pattern
"""A canonical ``"a,b"`` key: two integers without leading zeros, plus or spaces."""


def parse_key(key: str) -> tuple[int, int]:
    """Split a canonical ``"a,b"`` key into its integers.

    Raises:
        ValueError: The key is not canonical.
    """
    match = _KEY.match(key)
    if match is None:
        msg = f"{key!r} is not a coordinate key like '3,-1'"
        raise ValueError(msg)
    return int(match[1]), int(match[2])


class Square(Model, frozen=True, revalidate_instances="subclass-instances"):
    """A square of a square grid: column x and row y, rows growing downwards."""

    x: int
    """Column; 0 is a board's left edge."""
    y: int
    """Row; 0 is a board's top edge."""

    def __add__(self, other: Square) -> Square:
        return Square(x=self.x + other.x, y=self.y + other.y)

    def __sub__(self, other: Square) -> Square:
        return Square(x=self.x - other.x, y=self.y - other.y)

    def step(self, direction: SquareDirection, distance: int = 1) -> Square:
        """The square ``distance`` steps away in ``direction``.

        Example:
            >>> from tabletop.boards import Square, SquareDirection
            >>> Square(x=1, y=1).step(SquareDirection.N)
            Square(x=1, y=0)
        """
        return Square(x=self.x + direction.dx * distance, y=self.y + direction.dy * distance)

    def neighbours(self, *, diagonal: bool = False) -> list[Square]:
        """The 4 orthogonal neighbours (N, E, S, W), or all 8 clockwise from N if ``diagonal``."""
        directions = list(SquareDirection) if diagonal else SquareDirection.orthogonal()
        return [self.step(direction) for direction in directions]

    def manhattan(self, other: Square) -> int:
        """Steps between the squares moving orthogonally (4-connectivity distance).

        Example:
            >>> Square(x=0, y=0).manhattan(Square(x=2, y=-1)), Square(x=0, y=0).chebyshev(Square(x=2, y=-1))
            (3, 2)
        """
        return abs(self.x - other.x) + abs(self.y - other.y)

    def chebyshev(self, other: Square) -> int:
        """Steps between the squares moving like a king (8-connectivity distance)."""
        return max(abs(self.x - other.x), abs(self.y - other.y))

    @property
    def key(self) -> str:
        """The canonical string form ``"x,y"`` (for dict keys in JSON)."""
        return f"{self.x},{self.y}"

    @classmethod
    def parse(cls, key: str) -> Square:
        """The square of a ``"x,y"`` key.

        Raises:
            ValueError: The key is not canonical.
        """
        x, y = parse_key(key)
        return cls(x=x, y=y)

    def sort_key(self) -> tuple[int, int]:
        """Row-major order: ``(y, x)``."""
        return (self.y, self.x)


class Hex(Model, frozen=True, revalidate_instances="subclass-instances"):
    """A hex in axial coordinates (q, r); the implied cube coordinate is s = -q - r.

    Axial coordinates are the same for pointy- and flat-topped grids; only direction names and
    screen positions differ.
    """

    q: int
    """Axial column (cube x)."""
    r: int
    """Axial row (cube z)."""

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(q=self.q + other.q, r=self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(q=self.q - other.q, r=self.r - other.r)

    def step(self, direction: HexDirection | int, distance: int = 1) -> Hex:
        """The hex ``distance`` steps away in ``direction`` (an enum member or an axial index 0-5).

        Example:
            >>> from tabletop.boards import Hex, PointyHexDirection
            >>> Hex(q=0, r=0).step(PointyHexDirection.NE, 2)
            Hex(q=2, r=-2)
        """
        dq, dr = HEX_DELTAS[direction if isinstance(direction, int) else direction.axial_index]
        return Hex(q=self.q + dq * distance, r=self.r + dr * distance)

    def neighbours(self) -> list[Hex]:
        """The six adjacent hexes in axial direction order (counter-clockwise from +q)."""
        return [Hex(q=self.q + dq, r=self.r + dr) for dq, dr in HEX_DELTAS]

    def distance(self, other: Hex) -> int:
        """Steps between the hexes.

        Example:
            >>> Hex(q=0, r=0).distance(Hex(q=2, r=-1))
            2
        """
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def rotated(self, steps: int = 1, center: Hex | None = None) -> Hex:
        """This hex rotated ``steps`` times 60° counter-clockwise (in axial order) about ``center``."""
        origin = center or Hex(q=0, r=0)
        q, r, s = self.q - origin.q, self.r - origin.r, self.s - origin.s
        for _ in range(steps % 6):
            q, r, s = -s, -q, -r
        return Hex(q=q + origin.q, r=r + origin.r)

    def cube(self) -> Cube:
        """The same hex in cube coordinates."""
        return Cube(q=self.q, r=self.r, s=self.s)

    def to_offset(self, layout: OffsetLayout) -> Offset:
        """The same hex in ``layout``'s offset coordinates."""
        q, r = self.q, self.r
        if layout is OffsetLayout.ODD_R:
            return Offset(col=q + (r - (r & 1)) // 2, row=r, layout=layout)
        if layout is OffsetLayout.EVEN_R:
            return Offset(col=q + (r + (r & 1)) // 2, row=r, layout=layout)
        if layout is OffsetLayout.ODD_Q:
            return Offset(col=q, row=r + (q - (q & 1)) // 2, layout=layout)
        return Offset(col=q, row=r + (q + (q & 1)) // 2, layout=layout)

    @property
    def key(self) -> str:
        """The canonical string form ``"q,r"`` (for dict keys in JSON)."""
        return f"{self.q},{self.r}"

    @classmethod
    def parse(cls, key: str) -> Hex:
        """The hex of a ``"q,r"`` key.

        Raises:
            ValueError: The key is not canonical.
        """
        q, r = parse_key(key)
        return cls(q=q, r=r)

    def sort_key(self) -> tuple[int, int]:
        """Row-major order: ``(r, q)``."""
        return (self.r, self.q)


class Cube(Model, frozen=True, revalidate_instances="subclass-instances"):
    """A hex in cube coordinates: three axes that always sum to zero."""

    q: int
    """Cube x (the axial q)."""
    r: int
    """Cube z (the axial r)."""
    s: int
    """Cube y, always ``-q - r``."""

    @model_validator(mode="after")
    def _sums_to_zero(self) -> Self:
        if self.q + self.r + self.s != 0:
            msg = f"cube coordinates must sum to 0, got q={self.q}, r={self.r}, s={self.s}"
            raise ValueError(msg)
        return self

    def to_hex(self) -> Hex:
        """The same hex in axial coordinates."""
        return Hex(q=self.q, r=self.r)

    def distance(self, other: Cube) -> int:
        """Steps between the hexes."""
        return max(abs(self.q - other.q), abs(self.r - other.r), abs(self.s - other.s))


class OffsetLayout(StrEnum):
    """How an offset grid shoves alternate rows (pointy tops) or columns (flat tops) by half a hex."""

    ODD_R = "odd-r"
    """Pointy tops; odd rows are shoved right."""
    EVEN_R = "even-r"
    """Pointy tops; even rows are shoved right."""
    ODD_Q = "odd-q"
    """Flat tops; odd columns are shoved down."""
    EVEN_Q = "even-q"
    """Flat tops; even columns are shoved down."""


class Offset(Model, frozen=True, revalidate_instances="subclass-instances"):
    """A hex in offset coordinates (column, row) of a rectangular-looking hex map."""

    col: int
    """Column on the map."""
    row: int
    """Row on the map."""
    layout: OffsetLayout
    """Which rows or columns are shoved by half a hex."""

    def to_hex(self) -> Hex:
        """The same hex in axial coordinates."""
        col, row = self.col, self.row
        if self.layout is OffsetLayout.ODD_R:
            return Hex(q=col - (row - (row & 1)) // 2, r=row)
        if self.layout is OffsetLayout.EVEN_R:
            return Hex(q=col - (row + (row & 1)) // 2, r=row)
        if self.layout is OffsetLayout.ODD_Q:
            return Hex(q=col, r=row - (col - (col & 1)) // 2)
        return Hex(q=col, r=row - (col + (col & 1)) // 2)
