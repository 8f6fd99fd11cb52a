"""Graph searches over any board: breadth-first traversal, shortest paths, connected regions.

The graph is given by a ``neighbours`` function (node -> adjacent nodes), so the same searches run
on square grids, hex grids, or any other adjacency. Results follow the order ``neighbours`` yields
nodes in, so they are deterministic whenever it is.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

__all__ = ["breadth_first", "connected_regions", "shortest_path", "shortest_path_to"]

NodeT = TypeVar("NodeT", bound=Hashable)


def breadth_first(
    start: NodeT,
    neighbours: Callable[[NodeT], Iterable[NodeT]],
    *,
    max_depth: int | None = None,
) -> dict[NodeT, int]:
    """Every node reachable from ``start``, with its distance in steps, in visiting order.

    Args:
        start: Where the search begins (distance 0).
        neighbours: The nodes one step away from a node (filter out blocked ones here).
        max_depth: Stop expanding at this distance; None searches everything reachable.

    Example:
        >>> from tabletop.boards import Square, breadth_first
        >>> reached = breadth_first(Square(x=0, y=0), lambda s: s.neighbours(), max_depth=1)
        >>> sorted(reached.values())
        [0, 1, 1, 1, 1]
    """
    distances = {start: 0}
    frontier = deque([start])
    while frontier:
        node = frontier.popleft()
        depth = distances[node]
        if max_depth is not None and depth >= max_depth:
            continue
        for neighbour in neighbours(node):
            if neighbour not in distances:
                distances[neighbour] = depth + 1
                frontier.append(neighbour)
    return distances


def shortest_path_to(
    starts: Iterable[NodeT],
    is_goal: Callable[[NodeT], bool],
    neighbours: Callable[[NodeT], Iterable[NodeT]],
) -> list[NodeT] | None:
    """A fewest-steps path from any of ``starts`` to any node for which ``is_goal`` is true.

    Multi-source search answers connection questions (e.g. "does any stone on the top edge
    connect to the bottom edge?") in one pass.

    Returns:
        The path's nodes from a start to a goal, both included (a single node if a start is a
        goal), or None if no goal is reachable.
    """
    came_from: dict[NodeT, NodeT | None] = {}
    frontier: deque[NodeT] = deque()
    for start in starts:
        if start not in came_from:
            came_from[start] = None
            frontier.append(start)
    while frontier:
        node = frontier.popleft()
        if is_goal(node):
            path = [node]
            previous = came_from[node]
            while previous is not None:
                path.append(previous)
                previous = came_from[previous]
            path.reverse()
            return path
        for neighbour in neighbours(node):
            if neighbour not in came_from:
                came_from[neighbour] = node
                frontier.append(neighbour)
    return None


def shortest_path(
    start: NodeT,
    goal: NodeT,
    neighbours: Callable[[NodeT], Iterable[NodeT]],
) -> list[NodeT] | None:
    """A fewest-steps path from ``start`` to ``goal`` (both included), or None if there is none.

    Example:
        >>> from tabletop.boards import Hex, shortest_path
        >>> path = shortest_path(Hex(q=0, r=0), Hex(q=2, r=-1), lambda h: h.neighbours())
        >>> len(path) - 1
        2
    """
    return shortest_path_to([start], lambda node: node == goal, neighbours)


def connected_regions(
    nodes: Iterable[NodeT],
    neighbours: Callable[[NodeT], Iterable[NodeT]],
) -> list[list[NodeT]]:
    """Split ``nodes`` into maximal groups connected through each other (e.g. Go groups).

    Only steps between members of ``nodes`` count. Regions come in the order of their first
    node in ``nodes``; each lists its nodes in breadth-first order from that node.
    """
    members = list(dict.fromkeys(nodes))
    allowed = set(members)

    def member_neighbours(node: NodeT) -> Iterable[NodeT]:
        return (neighbour for neighbour in neighbours(node) if neighbour in allowed)

    seen: set[NodeT] = set()
    regions: list[list[NodeT]] = []
    for node in members:
        if node in seen:
            continue
        region = list(breadth_first(node, member_neighbours))
        seen.update(region)
        regions.append(region)
    return regions
