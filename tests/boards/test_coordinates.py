"""Coordinates and directions: conversions round-trip, distances are metrics, steps are consistent."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from tabletop.boards import (
    Cube,
    FlatHexDirection,
    Hex,
    HexLayout,
    HexOrientation,
    Offset,
    OffsetLayout,
    PointyHexDirection,
    Square,
    SquareDirection,
)

ints = st.integers(min_value=-50, max_value=50)
hexes = st.builds(Hex, q=ints, r=ints)
squares = st.builds(Square, x=ints, y=ints)
fast = settings(max_examples=60, deadline=None)


@fast
@given(hex_=hexes, layout=st.sampled_from(OffsetLayout))
def test_offset_coordinates_round_trip(hex_: Hex, layout: OffsetLayout) -> None:
    offset = hex_.to_offset(layout)
    assert offset.layout is layout
    assert offset.to_hex() == hex_


@fast
@given(col=ints, row=ints, layout=st.sampled_from(OffsetLayout))
def test_every_offset_is_some_hex(col: int, row: int, layout: OffsetLayout) -> None:
    offset = Offset(col=col, row=row, layout=layout)
    assert offset.to_hex().to_offset(layout) == offset


@pytest.mark.parametrize(
    ("layout", "hex_", "col", "row"),
    [
        (OffsetLayout.ODD_R, Hex(q=0, r=1), 0, 1),
        (OffsetLayout.ODD_R, Hex(q=-1, r=1), -1, 1),
        (OffsetLayout.EVEN_R, Hex(q=0, r=1), 1, 1),
        (OffsetLayout.ODD_Q, Hex(q=1, r=0), 1, 0),
        (OffsetLayout.EVEN_Q, Hex(q=1, r=0), 1, 1),
        (OffsetLayout.ODD_R, Hex(q=-1, r=-1), -2, -1),
    ],
)
def test_offset_layouts_shove_the_documented_rows_and_columns(
    layout: OffsetLayout, hex_: Hex, col: int, row: int
) -> None:
    assert hex_.to_offset(layout) == Offset(col=col, row=row, layout=layout)


@fast
@given(hex_=hexes)
def test_cube_coordinates_round_trip_and_sum_to_zero(hex_: Hex) -> None:
    cube = hex_.cube()
    assert cube.q + cube.r + cube.s == 0
    assert cube.to_hex() == hex_


def test_cube_coordinates_that_do_not_sum_to_zero_are_rejected() -> None:
    with pytest.raises(ValidationError, match="sum to 0"):
        Cube(q=1, r=1, s=1)


@fast
@given(a=hexes, b=hexes, c=hexes)
def test_hex_distance_is_a_metric_matching_cube_distance(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) == b.distance(a) == a.cube().distance(b.cube())
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@fast
@given(a=squares, b=squares, c=squares)
def test_square_distances_are_metrics(a: Square, b: Square, c: Square) -> None:
    assert a.manhattan(b) == b.manhattan(a)
    assert a.chebyshev(b) == b.chebyshev(a)
    assert a.chebyshev(b) <= a.manhattan(b) <= 2 * a.chebyshev(b)
    assert a.manhattan(c) <= a.manhattan(b) + b.manhattan(c)
    assert a.chebyshev(c) <= a.chebyshev(b) + b.chebyshev(c)


@fast
@given(hex_=hexes, center=hexes, steps=st.integers(min_value=-12, max_value=12))
def test_rotation_keeps_the_distance_to_the_center_and_six_turns_are_identity(
    hex_: Hex, center: Hex, steps: int
) -> None:
    rotated = hex_.rotated(steps, center)
    assert rotated.distance(center) == hex_.distance(center)
    assert rotated.rotated(6 - steps % 6, center) == hex_


@pytest.mark.parametrize("index", range(6))
def test_rotating_a_direction_once_gives_the_next_direction(index: int) -> None:
    origin = Hex(q=0, r=0)
    assert origin.step(index).rotated(1) == origin.step((index + 1) % 6)


@pytest.mark.parametrize("direction", list(SquareDirection))
def test_square_steps_and_opposites_cancel(direction: SquareDirection) -> None:
    start = Square(x=3, y=-2)
    assert start.step(direction, 2).step(direction.opposite, 2) == start
    assert direction.is_diagonal == (direction in SquareDirection.diagonals())
    assert start.step(direction).chebyshev(start) == 1


def test_square_north_is_up_a_row() -> None:
    assert Square(x=2, y=2).step(SquareDirection.N) == Square(x=2, y=1)
    assert Square(x=2, y=2).step(SquareDirection.SE) == Square(x=3, y=3)
    assert Square(x=1, y=1) + Square(x=2, y=3) - Square(x=1, y=1) == Square(x=2, y=3)


@pytest.mark.parametrize("diagonal", [False, True])
def test_square_neighbours_are_the_squares_at_distance_one(diagonal: bool) -> None:
    center = Square(x=0, y=0)
    neighbours = center.neighbours(diagonal=diagonal)
    distance = center.chebyshev if diagonal else center.manhattan
    ring = {Square(x=x, y=y) for x in range(-2, 3) for y in range(-2, 3) if distance(Square(x=x, y=y)) == 1}
    assert len(neighbours) == len(ring) == (8 if diagonal else 4)
    assert set(neighbours) == ring


@pytest.mark.parametrize("directions", [PointyHexDirection, FlatHexDirection])
def test_hex_directions_of_both_orientations_are_the_six_unit_steps(
    directions: type[PointyHexDirection] | type[FlatHexDirection],
) -> None:
    origin = Hex(q=0, r=0)
    assert [origin.step(direction) for direction in directions] == origin.neighbours()
    for direction in directions:
        assert origin.step(direction).distance(origin) == 1
        assert origin.step(direction, 3).step(direction.opposite, 3) == origin
        assert (direction.dq, direction.dr) == (origin.step(direction).q, origin.step(direction).r)


@pytest.mark.parametrize(
    ("orientation", "direction", "dx_sign", "dy_sign"),
    [
        (HexOrientation.POINTY, PointyHexDirection.E, 1, 0),
        (HexOrientation.POINTY, PointyHexDirection.NW, -1, -1),
        (HexOrientation.POINTY, PointyHexDirection.SE, 1, 1),
        (HexOrientation.FLAT, FlatHexDirection.N, 0, -1),
        (HexOrientation.FLAT, FlatHexDirection.SE, 1, 1),
        (HexOrientation.FLAT, FlatHexDirection.SW, -1, 1),
    ],
)
def test_direction_names_point_where_the_layout_draws_them(
    orientation: HexOrientation,
    direction: PointyHexDirection | FlatHexDirection,
    dx_sign: int,
    dy_sign: int,
) -> None:
    layout = HexLayout(orientation=orientation, size=10.0)
    x, y = layout.to_pixel(Hex(q=0, r=0).step(direction))

    def sign(value: float) -> int:
        return 0 if abs(value) < 1e-9 else (1 if value > 0 else -1)

    assert (sign(x), sign(y)) == (dx_sign, dy_sign)
    assert orientation.directions is type(direction)


@fast
@given(
    hex_=hexes,
    orientation=st.sampled_from(HexOrientation),
    size=st.floats(min_value=0.5, max_value=100.0),
    origin=st.tuples(st.floats(-500, 500), st.floats(-500, 500)),
    jitter=st.tuples(st.floats(-0.4, 0.4), st.floats(-0.4, 0.4)),
)
def test_pixels_inside_a_hex_map_back_to_that_hex(
    hex_: Hex,
    orientation: HexOrientation,
    size: float,
    origin: tuple[float, float],
    jitter: tuple[float, float],
) -> None:
    layout = HexLayout(orientation=orientation, size=size, origin_x=origin[0], origin_y=origin[1])
    x, y = layout.to_pixel(hex_)
    # Points within 0.4 * size of the centre are inside the hex (its inner radius is 0.866 * size).
    assert layout.from_pixel(x + jitter[0] * size, y + jitter[1] * size) == hex_


def test_hex_corners_are_size_away_from_the_centre_and_shared_by_neighbours() -> None:
    layout = HexLayout(orientation=HexOrientation.POINTY, size=2.0)
    center = layout.to_pixel(Hex(q=0, r=0))
    corners = layout.corners(Hex(q=0, r=0))
    assert all(abs(((x - center[0]) ** 2 + (y - center[1]) ** 2) ** 0.5 - 2.0) < 1e-9 for x, y in corners)
    east = layout.corners(Hex(q=1, r=0))
    shared = [c for c in corners if any(abs(c[0] - e[0]) + abs(c[1] - e[1]) < 1e-9 for e in east)]
    assert len(shared) == 2


@fast
@given(coordinate=st.one_of(hexes, squares))
def test_keys_round_trip(coordinate: Hex | Square) -> None:
    assert type(coordinate).parse(coordinate.key) == coordinate


@pytest.mark.parametrize("key", ["1, 2", "01,2", "-0,1", "1,2,3", "a,b", "+1,2", ""])
def test_non_canonical_keys_are_rejected(key: str) -> None:
    with pytest.raises(ValueError, match="not a coordinate key"):
        Hex.parse(key)


def test_coordinates_are_frozen_hashable_and_serializable() -> None:
    hex_ = Hex(q=1, r=-2)
    assert {hex_, Hex(q=1, r=-2)} == {hex_}
    with pytest.raises(ValidationError):
        hex_.q = 5  # type: ignore[misc]
    assert Hex.model_validate_json(hex_.model_dump_json()) == hex_
    with pytest.raises(ValidationError):
        Square.model_validate({"x": 1, "y": 2, "z": 3})
