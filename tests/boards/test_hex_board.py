"""HexBoard: a hex board of any shape, keyed by axial coordinates in JSON."""

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from tabletop.boards import (
    Hex,
    HexBoard,
    HexOrientation,
    HydratedHexBoard,
    OffsetLayout,
    hex_parallelogram,
    hex_rectangle,
    hex_ring,
    hex_spiral,
)

fast = settings(max_examples=30, deadline=None)


@pytest.mark.parametrize("radius", [0, 1, 3])
def test_a_hexagon_board_has_every_hex_within_its_radius(radius: int) -> None:
    board = HexBoard[str].hexagon(radius)
    assert set(board.hexes()) == set(hex_spiral(Hex(q=0, r=0), radius))
    assert len(board.empty_cells()) == 1 + 3 * radius * (radius + 1)
    assert board.orientation is HexOrientation.POINTY


def test_get_set_and_off_board_errors() -> None:
    board = HexBoard[int].hexagon(1)
    board.set(Hex(q=1, r=-1), 7)
    assert board.get(Hex(q=1, r=-1)) == 7
    assert board[Hex(q=1, r=-1)] == 7
    board[Hex(q=0, r=0)] = 3
    assert board.positions_of(3) == [Hex(q=0, r=0)]
    before = board.model_dump()
    with pytest.raises(IndexError, match=r"hex \(2, 0\) is not on the board"):
        board.set(Hex(q=2, r=0), 1)
    with pytest.raises(IndexError):
        board.get(Hex(q=2, r=0))
    assert board.model_dump() == before
    assert Hex(q=2, r=0) not in board
    assert Hex(q=0, r=1) in board


@pytest.mark.parametrize(("hex_", "count"), [(Hex(q=0, r=0), 6), (Hex(q=2, r=0), 3), (Hex(q=1, r=0), 6)])
def test_neighbours_stay_on_the_board(hex_: Hex, count: int) -> None:
    board = HexBoard[str].hexagon(2)
    neighbours = board.neighbours(hex_)
    assert len(neighbours) == count
    assert all(n in board and n.distance(hex_) == 1 for n in neighbours)


def brute_force_lines(cells: set[Hex], length: int) -> set[frozenset[Hex]]:
    runs = set()
    for start in cells:
        for direction in range(6):
            run = [start.step(direction, i) for i in range(length)]
            if all(hex_ in cells for hex_ in run):
                runs.add(frozenset(run))
    return runs


@fast
@given(radius=st.integers(min_value=0, max_value=4), length=st.integers(min_value=2, max_value=5))
def test_lines_are_exactly_the_straight_runs_of_that_length(radius: int, length: int) -> None:
    board = HexBoard[str].hexagon(radius)
    lines = board.lines(length)
    assert len(lines) == len({frozenset(line) for line in lines})
    assert {frozenset(line) for line in lines} == brute_force_lines(set(board.hexes()), length)


def test_lines_follow_the_board_shape_not_a_hexagon() -> None:
    board = HexBoard[str].of(hex_rectangle(4, 2, OffsetLayout.ODD_R))
    assert {frozenset(line) for line in board.lines(3)} == brute_force_lines(set(board.hexes()), 3)


def test_find_line_and_is_full() -> None:
    board = HexBoard[str].hexagon(1)
    for hex_ in [Hex(q=-1, r=1), Hex(q=0, r=0), Hex(q=1, r=-1)]:
        board.set(hex_, "blue")
    line = board.find_line(3)
    assert line is not None
    assert set(line) == {Hex(q=-1, r=1), Hex(q=0, r=0), Hex(q=1, r=-1)}
    assert not board.is_full()
    for hex_ in board.empty_cells():
        board.set(hex_, "red")
    assert board.is_full()


def test_cells_serialize_as_an_object_keyed_by_q_comma_r() -> None:
    board = HexBoard[str].of([Hex(q=0, r=0), Hex(q=-1, r=2)], HexOrientation.FLAT)
    board.set(Hex(q=-1, r=2), "x")
    data = orjson.loads(board.model_dump_json())
    assert data == {"orientation": "flat", "cells": {"0,0": None, "-1,2": "x"}}
    assert HexBoard[str].model_validate(data) == board
    schema = HexBoard[str].model_json_schema()
    assert schema["required"] == ["cells"]
    assert "pattern" in str(schema["properties"]["cells"])


@pytest.mark.parametrize("key", ["0, 0", "01,0", "a", "1,2,3"])
def test_non_canonical_cell_keys_are_rejected(key: str) -> None:
    with pytest.raises(ValidationError):
        HexBoard[str].model_validate({"cells": {key: None}})


@pytest.fixture
def ring_board() -> HydratedHexBoard[str]:
    """A radius-2 hexagon whose ring 1 is walled except the hex at axial direction 0."""
    board = HydratedHexBoard[str].hexagon(2)
    for hex_ in hex_ring(Hex(q=0, r=0), 1):
        if hex_ != Hex(q=1, r=0):
            board.set(hex_, "wall")
    return board


def test_shortest_path_leaves_through_the_gap(ring_board: HydratedHexBoard[str]) -> None:
    start, goal = Hex(q=0, r=0), Hex(q=-2, r=0)
    path = ring_board.shortest_path(start, goal, passable=lambda cell: cell is None)
    assert path is not None
    assert path[1] == Hex(q=1, r=0)
    assert len(path) - 1 == 2 + 5  # through the gap out to ring 2, then 5 steps along ring 2
    assert all(ring_board.get(hex_) is None for hex_ in path)
    assert len(ring_board.shortest_path(start, goal) or []) - 1 == start.distance(goal)


def test_reachable_and_regions(ring_board: HydratedHexBoard[str]) -> None:
    reached = ring_board.reachable(Hex(q=0, r=0), passable=lambda cell: cell is None)
    assert set(reached) == {hex_ for hex_ in ring_board.hexes() if ring_board.get(hex_) is None}
    assert ring_board.reachable(Hex(q=0, r=0), passable=lambda cell: cell is None, max_steps=1) == {
        Hex(q=0, r=0): 0,
        Hex(q=1, r=0): 1,
    }
    walls = ring_board.regions(lambda cell: cell == "wall")
    assert len(walls) == 1
    assert len(walls[0]) == 5


@pytest.mark.parametrize(("cols", "rows"), [(1, 1), (2, 3), (11, 11), (5, 2)])
def test_a_parallelogram_board_numbers_its_cells_row_by_row(cols: int, rows: int) -> None:
    board = HexBoard[str].parallelogram(cols, rows)
    hexes = board.hexes()
    assert hexes == hex_parallelogram(cols, rows)
    assert [hexes.index(Hex(q=q, r=r)) for r in range(rows) for q in range(cols)] == list(range(cols * rows))
    assert board.empty_cells() == hexes and board.orientation is HexOrientation.POINTY


def test_a_parallelogram_cell_touches_the_six_cells_of_hex_adjacency() -> None:
    board = HexBoard[str].parallelogram(4, 3)
    around = {(n.q, n.r) for n in board.neighbours(Hex(q=1, r=1))}
    assert around == {(0, 1), (2, 1), (1, 0), (2, 0), (1, 2), (0, 2)}
    assert {(n.q, n.r) for n in board.neighbours(Hex(q=0, r=0))} == {(1, 0), (0, 1)}  # an acute corner
    assert {(n.q, n.r) for n in board.neighbours(Hex(q=3, r=0))} == {(2, 0), (3, 1), (2, 1)}  # obtuse


@pytest.mark.parametrize(("cols", "rows"), [(0, 3), (3, 0), (-1, 2)])
def test_a_parallelogram_needs_a_column_and_a_row(cols: int, rows: int) -> None:
    with pytest.raises(ValueError, match="at least one column and one row"):
        HexBoard[str].parallelogram(cols, rows)
