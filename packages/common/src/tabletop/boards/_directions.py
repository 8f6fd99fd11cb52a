"""Directions on square and hex grids."""

from __future__ import annotations

from enum import StrEnum
from typing import Self

__all__ = ["FlatHexDirection", "HexDirection", "PointyHexDirection", "SquareDirection"]


class SquareDirection(StrEnum):
    """The eight compass directions of a square grid, clockwise from north.

    Rows grow downwards (``y`` is the row index), so north is ``y - 1`` and east is ``x + 1``.

    Example:
        >>> SquareDirection.NE.dx, SquareDirection.NE.dy
        (1, -1)
        >>> [direction.value for direction in SquareDirection.orthogonal()]
        ['N', 'E', 'S', 'W']
    """

    N = "N"
    NE = "NE"
    E = "E"
    SE = "SE"
    S = "S"
    SW = "SW"
    W = "W"
    NW = "NW"

    @property
    def dx(self) -> int:
        """Column change of one step."""
        return _SQUARE_DELTAS[self][0]

    @property
    def dy(self) -> int:
        """Row change of one step (positive is downwards)."""
        return _SQUARE_DELTAS[self][1]

    @property
    def is_diagonal(self) -> bool:
        """True for NE, SE, SW and NW."""
        return self.dx != 0 and self.dy != 0

    @property
    def opposite(self) -> SquareDirection:
        """The direction pointing the other way."""
        members = list(SquareDirection)
        return members[(members.index(self) + 4) % 8]

    @classmethod
    def orthogonal(cls) -> tuple[SquareDirection, ...]:
        """N, E, S and W: the four directions of a rook (4-connectivity)."""
        return (cls.N, cls.E, cls.S, cls.W)

    @classmethod
    def diagonals(cls) -> tuple[SquareDirection, ...]:
        """NE, SE, SW and NW: the four directions of a bishop."""
        return (cls.NE, cls.SE, cls.SW, cls.NW)


_SQUARE_DELTAS: dict[SquareDirection, tuple[int, int]] = {
    SquareDirection.N: (0, -1),
    SquareDirection.NE: (1, -1),
    SquareDirection.E: (1, 0),
    SquareDirection.SE: (1, 1),
    SquareDirection.S: (0, 1),
    SquareDirection.SW: (-1, 1),
    SquareDirection.W: (-1, 0),
    SquareDirection.NW: (-1, -1),
}

HEX_DELTAS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
"""Axial ``(dq, dr)`` of the six hex directions, counter-clockwise; both enums follow this order."""


class _AxialSteps:
    """``dq``, ``dr`` and ``opposite`` of a hex direction enum whose members are in axial order."""

    @property
    def axial_index(self) -> int:
        """Position in the axial direction order (0 = +q, counter-clockwise)."""
        members: list[object] = list(type(self))  # type: ignore[call-overload]
        return members.index(self)

    @property
    def dq(self) -> int:
        """Axial q change of one step."""
        return HEX_DELTAS[self.axial_index][0]

    @property
    def dr(self) -> int:
        """Axial r change of one step."""
        return HEX_DELTAS[self.axial_index][1]

    @property
    def opposite(self) -> Self:
        """The direction pointing the other way."""
        members: list[Self] = list(type(self))  # type: ignore[call-overload]
        return members[(self.axial_index + 3) % 6]


class PointyHexDirection(_AxialSteps, StrEnum):
    """The six directions of a pointy-topped hex grid (flat sides left and right).

    Members are in axial order, counter-clockwise from east; ``dq``/``dr`` give the axial step.
    """

    E = "E"
    NE = "NE"
    NW = "NW"
    W = "W"
    SW = "SW"
    SE = "SE"


class FlatHexDirection(_AxialSteps, StrEnum):
    """The six directions of a flat-topped hex grid (flat sides top and bottom).

    Members are in axial order, counter-clockwise from south-east; ``dq``/``dr`` give the axial step.
    """

    SE = "SE"
    NE = "NE"
    N = "N"
    NW = "NW"
    SW = "SW"
    S = "S"


HexDirection = PointyHexDirection | FlatHexDirection
"""A hex direction named for either orientation; equal ``axial_index`` means the same step."""
