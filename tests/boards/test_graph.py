"""Searches: BFS distances match grid metrics, shortest paths are optimal against brute force."""

import itertools
from collections.abc import Callable, Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tabletop.boards import (
    Hex,
    Square,
    breadth_first,
    connected_regions,
    hex_spiral,
    rectangle,
    shortest_path,
    shortest_path_to,
)

fast = settings(max_examples=60, deadline=None)
INF = 10**9


def floyd_warshall(
    nodes: list[Square], adjacent: Callable[[Square, Square], bool]
) -> dict[tuple[int, int], int]:
    """All-pairs step counts by brute-force relaxation (independent of BFS)."""
    count = len(nodes)
    dist = {
        (i, j): 0 if i == j else (1 if adjacent(nodes[i], nodes[j]) else INF)
        for i in range(count)
        for j in range(count)
    }
    for k in range(count):
        for i in range(count):
            for j in range(count):
                through = dist[i, k] + dist[k, j]
                if through < dist[i, j]:
                    dist[i, j] = through
    return dist


@st.composite
def walled_grids(draw: st.DrawFn) -> tuple[int, int, frozenset[Square], bool]:
    width = draw(st.integers(min_value=1, max_value=4))
    height = draw(st.integers(min_value=1, max_value=4))
    cells = rectangle(width, height)
    walls = draw(st.sets(st.sampled_from(cells), max_size=len(cells) // 2))
    diagonal = draw(st.booleans())
    return width, height, frozenset(walls), diagonal


@settings(max_examples=40, deadline=None)
@given(grid=walled_grids())
def test_shortest_paths_are_optimal_valid_and_found_iff_reachable(
    grid: tuple[int, int, frozenset[Square], bool],
) -> None:
    width, height, walls, diagonal = grid
    open_cells = [square for square in rectangle(width, height) if square not in walls]
    allowed = set(open_cells)

    def neighbours(square: Square) -> list[Square]:
        return [n for n in square.neighbours(diagonal=diagonal) if n in allowed]

    def adjacent(a: Square, b: Square) -> bool:
        return (a.chebyshev(b) if diagonal else a.manhattan(b)) == 1

    dist = floyd_warshall(open_cells, adjacent)
    for i, start in enumerate(open_cells):
        reached = breadth_first(start, neighbours)
        for j, goal in enumerate(open_cells):
            path = shortest_path(start, goal, neighbours)
            if dist[i, j] == INF:
                assert path is None
                assert goal not in reached
                continue
            assert path is not None
            assert len(path) - 1 == dist[i, j] == reached[goal]
            assert path[0] == start
            assert path[-1] == goal
            assert all(node in allowed for node in path)
            assert all(adjacent(a, b) for a, b in itertools.pairwise(path))


@pytest.mark.parametrize(("diagonal", "metric"), [(False, Square.manhattan), (True, Square.chebyshev)])
def test_bfs_distances_on_an_open_grid_are_manhattan_or_chebyshev(
    diagonal: bool, metric: Callable[[Square, Square], int]
) -> None:
    board = set(rectangle(7, 5))
    start = Square(x=2, y=3)
    reached = breadth_first(start, lambda s: [n for n in s.neighbours(diagonal=diagonal) if n in board])
    assert set(reached) == board
    assert all(distance == metric(start, square) for square, distance in reached.items())


@fast
@given(radius=st.integers(min_value=0, max_value=5), q=st.integers(-3, 3), r=st.integers(-3, 3))
def test_bfs_distances_on_a_hexagon_are_hex_distances(radius: int, q: int, r: int) -> None:
    board = set(hex_spiral(Hex(q=0, r=0), radius))
    start = Hex(q=q, r=r)
    if start not in board:
        start = Hex(q=0, r=0)
    reached = breadth_first(start, lambda h: [n for n in h.neighbours() if n in board])
    assert set(reached) == board  # a hexagon is convex: BFS within it finds straight paths
    assert all(distance == start.distance(hex_) for hex_, distance in reached.items())


def test_bfs_visits_in_order_of_distance_and_respects_max_depth() -> None:
    start = Hex(q=0, r=0)
    reached = breadth_first(start, Hex.neighbours, max_depth=3)
    distances = list(reached.values())
    assert distances == sorted(distances)
    assert set(reached) == set(hex_spiral(start, 3))


def test_a_start_that_is_the_goal_is_a_one_node_path() -> None:
    start = Square(x=0, y=0)
    assert shortest_path(start, start, lambda s: s.neighbours()) == [start]


def test_multi_source_search_finds_the_nearest_goal() -> None:
    board = set(rectangle(5, 5))

    def neighbours(square: Square) -> list[Square]:
        return [n for n in square.neighbours() if n in board]

    top_edge = [Square(x=x, y=0) for x in range(5)]
    path = shortest_path_to(top_edge, lambda s: s == Square(x=4, y=3), neighbours)
    assert path is not None
    assert path[0] == Square(x=4, y=0)
    assert len(path) == 4
    assert shortest_path_to(top_edge, lambda s: s.y == 9, neighbours) is None


def test_connected_regions_partition_the_nodes_into_connected_groups() -> None:
    stones = [Square(x=0, y=0), Square(x=1, y=0), Square(x=3, y=3), Square(x=1, y=1), Square(x=2, y=2)]

    def orthogonal(square: Square) -> Iterable[Square]:
        return square.neighbours()

    regions = connected_regions(stones, orthogonal)
    assert [set(region) for region in regions] == [
        {Square(x=0, y=0), Square(x=1, y=0), Square(x=1, y=1)},
        {Square(x=3, y=3)},
        {Square(x=2, y=2)},
    ]
    diagonal_regions = connected_regions(stones, lambda s: s.neighbours(diagonal=True))
    assert len(diagonal_regions) == 1
    assert sorted(diagonal_regions[0], key=Square.sort_key) == sorted(stones, key=Square.sort_key)
