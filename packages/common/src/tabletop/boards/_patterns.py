"""Shapes of cells: hex rings and spirals, rectangles, lines and rays."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

from tabletop.boards._coordinates import Hex, Offset, OffsetLayout, Square
from tabletop.boards._directions import HexDirection, SquareDirection
from tabletop.boards._hex import round_hex

__all__ = [
    "hex_line",
    "hex_ray",
    "hex_rectangle",
    "hex_ring",
    "hex_spiral",
    "rectangle",
    "square_line",
    "square_ray",
]

NodeT = TypeVar("NodeT")


def hex_ring(center: Hex, radius: int) -> list[Hex]:
    """The hexes exactly ``radius`` steps from ``center``: ``6 * radius`` of them (1 for radius 0).

    The ring starts at ``center.step(4, radius)`` (axial direction 4) and walks counter-clockwise
    in axial order.

    Raises:
        ValueError: ``radius`` is negative.
    """
    if radius < 0:
        msg = f"a ring's radius cannot be negative, got {radius}"
        raise ValueError(msg)
    if radius == 0:
        return [center]
    ring: list[Hex] = []
    hex_ = center.step(4, radius)
    for side in range(6):
        for _ in range(radius):
            ring.append(hex_)
            hex_ = hex_.step(side)
    return ring


def hex_spiral(center: Hex, radius: int) -> list[Hex]:
    """Every hex within ``radius`` of ``center`` (a hexagon of ``1 + 3r(r+1)`` hexes), ring by ring.

    Example:
        >>> from tabletop.boards import Hex, hex_spiral
        >>> len(hex_spiral(Hex(q=0, r=0), 2))
        19
    """
    return [hex_ for ring in range(radius + 1) for hex_ in hex_ring(center, ring)]


def hex_line(start: Hex, end: Hex) -> list[Hex]:
    """The hexes a straight line from ``start`` to ``end`` passes through, both included.

    The line has ``start.distance(end) + 1`` hexes, each adjacent to the next.
    """
    steps = start.distance(end)
    # Nudge off the exact edges between hexes so that ties always break the same way.
    q0, r0 = start.q + 1e-6, start.r + 2e-6
    q1, r1 = end.q + 1e-6, end.r + 2e-6
    return [
        round_hex(q0 + (q1 - q0) * i / steps, r0 + (r1 - r0) * i / steps) if steps else start
        for i in range(steps + 1)
    ]


def hex_ray(start: Hex, direction: HexDirection | int, length: int) -> list[Hex]:
    """``length`` hexes in a straight line from ``start`` (included) in ``direction``."""
    return [start.step(direction, i) for i in range(length)]


def hex_rectangle(width: int, height: int, layout: OffsetLayout) -> list[Hex]:
    """The hexes of a ``width`` x ``height`` map in ``layout``'s offset coordinates, row by row."""
    return [Offset(col=col, row=row, layout=layout).to_hex() for row in range(height) for col in range(width)]


def hex_parallelogram(cols: int, rows: int) -> list[Hex]:
    """The hexes ``q`` in ``0..cols-1``, ``r`` in ``0..rows-1``, row by row: a Hex board's rhombus.

    Row ``r`` is drawn shifted half a hex right of row ``r - 1`` (pointy tops), so the shape is a
    rhombus when ``cols == rows``; cell ``(q, r)`` is number ``r * cols + q`` in this order.

    Example:
        >>> [hex_.key for hex_ in hex_parallelogram(2, 2)]
        ['0,0', '1,0', '0,1', '1,1']
    """
    return [Hex(q=q, r=r) for r in range(rows) for q in range(cols)]


def rectangle(width: int, height: int, origin: Square | None = None) -> list[Square]:
    """The squares of a ``width`` x ``height`` rectangle from ``origin`` (top-left), row by row."""
    ox, oy = (0, 0) if origin is None else (origin.x, origin.y)
    return [Square(x=ox + x, y=oy + y) for y in range(height) for x in range(width)]


def square_line(start: Square, end: Square) -> list[Square]:
    """The squares a straight line from ``start`` to ``end`` passes through, both included.

    The line has ``start.chebyshev(end) + 1`` squares, each a king's step from the next;
    rows, columns and diagonals come out exact.
    """
    steps = start.chebyshev(end)
    if steps == 0:
        return [start]
    dx, dy = end.x - start.x, end.y - start.y
    return [
        Square(x=start.x + math.floor(dx * i / steps + 0.5), y=start.y + math.floor(dy * i / steps + 0.5))
        for i in range(steps + 1)
    ]


def square_ray(start: Square, direction: SquareDirection, length: int) -> list[Square]:
    """``length`` squares in a straight line from ``start`` (included) in ``direction``."""
    return [start.step(direction, i) for i in range(length)]


def segments(
    nodes: Iterable[NodeT],
    contains: Callable[[NodeT], bool],
    steps: Sequence[Callable[[NodeT], NodeT]],
    length: int,
) -> list[list[NodeT]]:
    """Every straight run of ``length`` nodes inside a board, for each step direction.

    Each run starts at a node of ``nodes`` and follows one of ``steps``; runs leaving the board
    (``contains`` false) are dropped. Pass one direction of each opposite pair to avoid duplicates.

    Raises:
        ValueError: ``length`` is less than 1.
    """
    if length < 1:
        msg = f"a line has at least one cell, got length {length}"
        raise ValueError(msg)
    members = list(nodes)
    if length == 1:
        return [[node] for node in members]
    found: list[list[NodeT]] = []
    for step in steps:
        for node in members:
            run = [node]
            while len(run) < length and contains(next_node := step(run[-1])):
                run.append(next_node)
            if len(run) == length:
                found.append(run)
    return found
