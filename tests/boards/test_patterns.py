"""Patterns: rings, spirals, rectangles, lines and rays have the shapes and sizes they promise."""

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabletop.boards import (
    Hex,
    OffsetLayout,
    PointyHexDirection,
    Square,
    SquareDirection,
    hex_line,
    hex_ray,
    hex_rectangle,
    hex_ring,
    hex_spiral,
    rectangle,
    square_line,
    square_ray,
)

fast = settings(max_examples=60, deadline=None)
ints = st.integers(min_value=-20, max_value=20)
hexes = st.builds(Hex, q=ints, r=ints)
squares = st.builds(Square, x=ints, y=ints)
radii = st.integers(min_value=0, max_value=7)


@fast
@given(center=hexes, radius=radii)
def test_a_ring_has_6r_distinct_hexes_at_distance_r_each_adjacent_to_the_next(
    center: Hex, radius: int
) -> None:
    ring = hex_ring(center, radius)
    assert len(ring) == len(set(ring)) == max(1, 6 * radius)
    assert all(center.distance(hex_) == radius for hex_ in ring)
    if radius > 0:
        assert all(a.distance(b) == 1 for a, b in itertools.pairwise([*ring, ring[0]]))


@fast
@given(center=hexes, radius=radii)
def test_a_spiral_is_every_hex_within_r_ring_by_ring(center: Hex, radius: int) -> None:
    spiral = hex_spiral(center, radius)
    assert len(spiral) == len(set(spiral)) == 1 + 3 * radius * (radius + 1)
    brute = {
        Hex(q=center.q + dq, r=center.r + dr)
        for dq in range(-radius, radius + 1)
        for dr in range(-radius, radius + 1)
        if center.distance(Hex(q=center.q + dq, r=center.r + dr)) <= radius
    }
    assert set(spiral) == brute
    distances = [center.distance(hex_) for hex_ in spiral]
    assert distances == sorted(distances)


def test_a_negative_radius_is_rejected() -> None:
    with pytest.raises(ValueError, match="negative"):
        hex_ring(Hex(q=0, r=0), -1)


@fast
@given(start=hexes, end=hexes)
def test_a_hex_line_is_a_shortest_chain_between_its_ends(start: Hex, end: Hex) -> None:
    line = hex_line(start, end)
    assert line[0] == start
    assert line[-1] == end
    assert len(line) == start.distance(end) + 1
    assert all(a.distance(b) == 1 for a, b in itertools.pairwise(line))


@pytest.mark.parametrize("direction", list(PointyHexDirection))
def test_a_hex_line_along_an_axis_is_the_ray(direction: PointyHexDirection) -> None:
    start = Hex(q=1, r=-2)
    ray = hex_ray(start, direction, 5)
    assert hex_line(start, ray[-1]) == ray
    assert [start.distance(hex_) for hex_ in ray] == [0, 1, 2, 3, 4]


@fast
@given(start=squares, end=squares)
def test_a_square_line_is_a_king_chain_between_its_ends(start: Square, end: Square) -> None:
    line = square_line(start, end)
    assert line[0] == start
    assert line[-1] == end
    assert len(line) == start.chebyshev(end) + 1
    assert all(a.chebyshev(b) == 1 for a, b in itertools.pairwise(line))


@pytest.mark.parametrize("direction", list(SquareDirection))
def test_a_square_line_along_a_row_column_or_diagonal_is_the_ray(direction: SquareDirection) -> None:
    start = Square(x=2, y=2)
    ray = square_ray(start, direction, 4)
    assert square_line(start, ray[-1]) == ray
    assert len(set(ray)) == 4


@pytest.mark.parametrize(("width", "height"), [(1, 1), (3, 2), (2, 5)])
def test_a_rectangle_lists_its_squares_row_by_row(width: int, height: int) -> None:
    origin = Square(x=-1, y=4)
    cells = rectangle(width, height, origin)
    assert len(cells) == len(set(cells)) == width * height
    assert cells[0] == origin
    assert cells[-1] == Square(x=origin.x + width - 1, y=origin.y + height - 1)
    assert cells == sorted(cells, key=Square.sort_key)


@pytest.mark.parametrize("layout", list(OffsetLayout))
def test_a_hex_rectangle_covers_its_offset_columns_and_rows(layout: OffsetLayout) -> None:
    hexes = hex_rectangle(4, 3, layout)
    assert len(set(hexes)) == 12
    assert {(h.to_offset(layout).col, h.to_offset(layout).row) for h in hexes} == {
        (col, row) for col in range(4) for row in range(3)
    }
    # Every inner hex of a rectangle map has its six neighbours on the map.
    inner = [h for h in hexes if 0 < h.to_offset(layout).col < 3 and 0 < h.to_offset(layout).row < 2]
    assert inner
    assert all(set(h.neighbours()) <= set(hexes) for h in inner)
