"""SquareBoard: the board tic-tac-toe and friends keep in their state."""

import itertools

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError
from tabletop.boards import HydratedSquareBoard, Square, SquareBoard, SquareDirection, square_ray

fast = settings(max_examples=40, deadline=None)


@pytest.fixture
def board() -> SquareBoard[str]:
    """An empty 3x3 board of string marks."""
    return SquareBoard[str](width=3, height=3)


def test_a_new_board_is_empty_rows_of_none(board: SquareBoard[str]) -> None:
    assert board.cells == [[None, None, None]] * 3
    assert len(board.empty_cells()) == 9
    assert not board.is_full()
    assert board.find_line(3) is None


def test_set_and_get_address_column_then_row(board: SquareBoard[str]) -> None:
    board.set(2, 0, "X")
    assert board.get(2, 0) == "X"
    assert board.cells[0][2] == "X"
    assert board[Square(x=2, y=0)] == "X"
    board[Square(x=0, y=1)] = "O"
    assert board.get(0, 1) == "O"
    assert board.positions_of("X") == [Square(x=2, y=0)]
    assert Square(x=2, y=0) not in board.empty_cells()
    board.set(2, 0, None)
    assert board.get(2, 0) is None


@pytest.mark.parametrize(("x", "y"), [(-1, 0), (3, 0), (0, 3), (0, -1)])
def test_off_board_access_raises_and_changes_nothing(board: SquareBoard[str], x: int, y: int) -> None:
    before = board.model_dump()
    assert not board.contains(x, y)
    assert Square(x=x, y=y) not in board
    with pytest.raises(IndexError, match="off the 3x3 board"):
        board.get(x, y)
    with pytest.raises(IndexError, match="off the 3x3 board"):
        board.set(x, y, "X")
    assert board.model_dump() == before


def test_a_full_board_has_no_empty_cells(board: SquareBoard[str]) -> None:
    for square, mark in zip(board.squares(), itertools.cycle("XO"), strict=False):
        board[square] = mark
    assert board.is_full()
    assert board.empty_cells() == []


def brute_force_lines(
    width: int, height: int, length: int, directions: list[SquareDirection]
) -> set[frozenset[Square]]:
    """Every run of ``length`` in-bounds squares along ``directions`` (both senses), as sets."""
    runs = set()
    for x, y, direction in itertools.product(range(width), range(height), directions):
        for heading in (direction, direction.opposite):
            run = square_ray(Square(x=x, y=y), heading, length)
            if all(0 <= s.x < width and 0 <= s.y < height for s in run):
                runs.add(frozenset(run))
    return runs


@fast
@given(
    width=st.integers(min_value=1, max_value=7),
    height=st.integers(min_value=1, max_value=7),
    length=st.integers(min_value=2, max_value=5),
    diagonal=st.booleans(),
)
def test_lines_are_exactly_the_straight_runs_of_that_length(
    width: int, height: int, length: int, diagonal: bool
) -> None:
    board = SquareBoard[int](width=width, height=height)
    lines = board.lines(length, diagonal=diagonal)
    directions = list(SquareDirection) if diagonal else list(SquareDirection.orthogonal())
    assert len(lines) == len({frozenset(line) for line in lines})
    assert {frozenset(line) for line in lines} == brute_force_lines(width, height, length, directions)
    assert all(len(line) == length for line in lines)


def test_a_3x3_board_has_8_lines_of_three(board: SquareBoard[str]) -> None:
    lines = board.lines(3)
    assert len(lines) == 8
    assert lines[0] == [Square(x=0, y=0), Square(x=1, y=0), Square(x=2, y=0)]


def test_a_line_of_length_one_is_each_square_once(board: SquareBoard[str]) -> None:
    assert board.lines(1) == [[square] for square in board.squares()]
    with pytest.raises(ValueError, match="at least one cell"):
        board.lines(0)


@pytest.mark.parametrize(
    "line",
    [
        [(0, 0), (1, 1), (2, 2)],
        [(2, 0), (1, 1), (0, 2)],
        [(1, 0), (1, 1), (1, 2)],
        [(0, 2), (1, 2), (2, 2)],
    ],
)
def test_find_line_finds_three_of_a_kind(board: SquareBoard[str], line: list[tuple[int, int]]) -> None:
    for x, y in line:
        board.set(x, y, "O")
    board.set(*next(s for s in [(0, 1), (2, 1)] if s not in line), "X")
    found = board.find_line(3)
    assert found is not None
    assert {(s.x, s.y) for s in found} == set(line)
    assert board.values(found) == ["O", "O", "O"]


def test_find_line_ignores_mixed_and_empty_lines(board: SquareBoard[str]) -> None:
    board.set(0, 0, "X")
    board.set(1, 0, "X")
    board.set(2, 0, "O")
    assert board.find_line(3) is None
    assert board.find_line(2) == [Square(x=0, y=0), Square(x=1, y=0)]


@pytest.mark.parametrize(
    ("square", "orthogonal", "all_eight"),
    [(Square(x=0, y=0), 2, 3), (Square(x=1, y=0), 3, 5), (Square(x=1, y=1), 4, 8), (Square(x=2, y=2), 2, 3)],
)
def test_neighbours_stay_on_the_board(
    board: SquareBoard[str], square: Square, orthogonal: int, all_eight: int
) -> None:
    assert len(board.neighbours(square)) == orthogonal
    assert len(board.neighbours(square, diagonal=True)) == all_eight
    assert all(n in board and n.chebyshev(square) == 1 for n in board.neighbours(square, diagonal=True))


def test_cells_must_match_the_dimensions() -> None:
    with pytest.raises(ValidationError, match="2 rows of 3 cells"):
        SquareBoard[str](width=3, height=2, cells=[[None, None, None]])
    with pytest.raises(ValidationError, match="2 rows of 3 cells"):
        SquareBoard[str].model_validate({"width": 3, "height": 2, "cells": [[None] * 3, [None] * 2]})


def test_invalid_dimensions_and_cell_values_are_reported() -> None:
    with pytest.raises(ValidationError) as caught:
        SquareBoard[str].model_validate({"width": 0, "height": 2})
    assert "width" in str(caught.value)
    with pytest.raises(ValidationError, match=r"cells\.0\.1"):
        SquareBoard[int].model_validate({"width": 2, "height": 1, "cells": [[1, "many"]]})


def test_json_round_trip_and_schema(board: SquareBoard[str]) -> None:
    board.set(1, 2, "X")
    data = orjson.loads(board.model_dump_json())
    assert data == {"width": 3, "height": 3, "cells": [[None] * 3, [None] * 3, [None, "X", None]]}
    assert SquareBoard[str].model_validate_json(board.model_dump_json()) == board
    schema = SquareBoard[str].model_json_schema()
    assert schema["required"] == ["width", "height"]
    cells = schema["properties"]["cells"]
    assert cells["items"]["items"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert cells["description"].startswith("Rows from top to bottom")


@pytest.fixture
def maze() -> HydratedSquareBoard[str]:
    """A 4x3 board with a wall: ``.#..`` / ``.#.#`` / ``....``."""
    board = HydratedSquareBoard[str](width=4, height=3)
    for x, y in [(1, 0), (1, 1), (3, 1)]:
        board.set(x, y, "#")
    return board


def test_shortest_path_goes_around_walls(maze: HydratedSquareBoard[str]) -> None:
    path = maze.shortest_path(Square(x=0, y=0), Square(x=2, y=0), passable=lambda cell: cell is None)
    assert path is not None
    assert [(s.x, s.y) for s in path] == [(0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0)]
    direct = maze.shortest_path(
        Square(x=0, y=0), Square(x=2, y=0), passable=lambda cell: cell is None, diagonal=True
    )
    assert direct is not None
    assert len(direct) == 5
    assert maze.shortest_path(Square(x=0, y=0), Square(x=2, y=0)) == [
        Square(x=0, y=0),
        Square(x=1, y=0),
        Square(x=2, y=0),
    ]


def test_reachable_and_regions(maze: HydratedSquareBoard[str]) -> None:
    reached = maze.reachable(Square(x=3, y=0), passable=lambda cell: cell is None)
    assert reached == {
        Square(x=3, y=0): 0,
        Square(x=2, y=0): 1,
        Square(x=2, y=1): 2,
        Square(x=2, y=2): 3,
        Square(x=1, y=2): 4,
        Square(x=3, y=2): 4,
        Square(x=0, y=2): 5,
        Square(x=0, y=1): 6,
        Square(x=0, y=0): 7,
    }
    assert len(maze.reachable(Square(x=3, y=0), passable=lambda cell: cell is None, max_steps=1)) == 2
    walls = maze.regions(lambda cell: cell == "#")
    assert [set(region) for region in walls] == [{Square(x=1, y=0), Square(x=1, y=1)}, {Square(x=3, y=1)}]
    assert len(maze.regions(lambda cell: cell == "#", diagonal=True)) == 2
    assert len(maze.regions(lambda cell: cell is None)) == 1


@pytest.mark.parametrize(
    ("width", "height", "length", "diagonal"),
    [(3, 3, 3, True), (3, 3, 2, False), (7, 6, 4, True), (5, 2, 3, True), (1, 1, 1, True), (19, 19, 5, True)],
)
@fast
@given(data=st.data())
def test_find_line_is_the_first_full_line_of_lines(
    width: int, height: int, length: int, diagonal: bool, data: st.DataObject
) -> None:
    cells = data.draw(
        st.lists(
            st.lists(st.sampled_from([None, "X", "O"]), min_size=width, max_size=width),
            min_size=height,
            max_size=height,
        )
    )
    board = SquareBoard[str](width=width, height=height, cells=cells)
    full = [line for line in board.lines(length, diagonal=diagonal) if _one_value(board, line)]
    assert board.find_line(length, diagonal=diagonal) == (full[0] if full else None)
    assert board.is_full() == all(cell is not None for row in cells for cell in row)


def _one_value(board: SquareBoard[str], line: list[Square]) -> bool:
    values = board.values(line)
    return values[0] is not None and all(value == values[0] for value in values)


def test_find_line_on_a_board_too_big_to_unroll_loops_instead() -> None:
    board = SquareBoard[str](width=40, height=40)
    for x in range(5):
        board.set(30 + x, 39, "X")
    assert board.find_line(5) == [Square(x=30 + x, y=39) for x in range(5)]
