"""Hex grid orientations and layouts: where hexes sit on screen, and which hex a point falls in."""

from __future__ import annotations

import math
from enum import StrEnum

from pydantic import Field

from tabletop._model import Model
from tabletop.boards._coordinates import Hex, OffsetLayout
from tabletop.boards._directions import FlatHexDirection, PointyHexDirection

__all__ = ["HexLayout", "HexOrientation", "round_hex"]

_SQRT3 = math.sqrt(3.0)


class HexOrientation(StrEnum):
    """Whether hexes have a pointy top (rows of hexes) or a flat top (columns of hexes)."""

    POINTY = "pointy"
    FLAT = "flat"

    @property
    def directions(self) -> type[PointyHexDirection] | type[FlatHexDirection]:
        """The direction names of this orientation."""
        return PointyHexDirection if self is HexOrientation.POINTY else FlatHexDirection

    @property
    def offset_layouts(self) -> tuple[OffsetLayout, OffsetLayout]:
        """The offset layouts that suit this orientation (shoved rows or shoved columns)."""
        if self is HexOrientation.POINTY:
            return (OffsetLayout.ODD_R, OffsetLayout.EVEN_R)
        return (OffsetLayout.ODD_Q, OffsetLayout.EVEN_Q)


def round_hex(q: float, r: float) -> Hex:
    """The hex containing the fractional axial point ``(q, r)``."""
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(q=rq, r=rr)


class HexLayout(Model, frozen=True, revalidate_instances="subclass-instances"):
    """How a hex grid is drawn: orientation, hex size and where hex ``(0, 0)`` is centred.

    Screen y grows downwards; size is the distance from a hex's centre to its corners.
    """

    orientation: HexOrientation
    """Pointy or flat tops."""
    size: float = Field(gt=0)
    """Centre-to-corner distance, in pixels."""
    origin_x: float = 0.0
    """Screen x of the centre of hex (0, 0)."""
    origin_y: float = 0.0
    """Screen y of the centre of hex (0, 0)."""

    def to_pixel(self, hex_: Hex) -> tuple[float, float]:
        """The screen position of a hex's centre."""
        if self.orientation is HexOrientation.POINTY:
            x = _SQRT3 * hex_.q + _SQRT3 / 2 * hex_.r
            y = 1.5 * hex_.r
        else:
            x = 1.5 * hex_.q
            y = _SQRT3 / 2 * hex_.q + _SQRT3 * hex_.r
        return (self.origin_x + self.size * x, self.origin_y + self.size * y)

    def from_pixel(self, x: float, y: float) -> Hex:
        """The hex that contains the screen point ``(x, y)``.

        Example:
            >>> from tabletop.boards import Hex, HexLayout, HexOrientation
            >>> layout = HexLayout(orientation=HexOrientation.FLAT, size=10.0)
            >>> layout.from_pixel(*layout.to_pixel(Hex(q=3, r=-1)))
            Hex(q=3, r=-1)
        """
        px, py = (x - self.origin_x) / self.size, (y - self.origin_y) / self.size
        if self.orientation is HexOrientation.POINTY:
            return round_hex(_SQRT3 / 3 * px - py / 3, 2 / 3 * py)
        return round_hex(2 / 3 * px, -px / 3 + _SQRT3 / 3 * py)

    def corners(self, hex_: Hex) -> list[tuple[float, float]]:
        """The six corners of a hex on screen, clockwise (screen y grows downwards)."""
        cx, cy = self.to_pixel(hex_)
        start = 30.0 if self.orientation is HexOrientation.POINTY else 0.0
        return [
            (
                cx + self.size * math.cos(math.radians(start + 60 * i)),
                cy + self.size * math.sin(math.radians(start + 60 * i)),
            )
            for i in range(6)
        ]
