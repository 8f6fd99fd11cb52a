"""Finding a winning chain: the group of one player's stones that joins their two edges.

Only the group of the stone just placed can have become a winning chain, so a move asks about
that group alone: a flood fill over the board's cached adjacency (built once per board size from
:meth:`tabletop.boards.HexBoard.neighbours`), keyed by the board's own ``"q,r"`` cell keys.
"""

from collections.abc import Mapping
from functools import lru_cache

from tabletop.boards import Hex, HexBoard

from tabletop_hex.components.sides import Connects, edges_touched


class Adjacency:
    """A ``cols`` x ``rows`` Hex board's neighbours and edges, by cell key."""

    def __init__(self, cols: int, rows: int) -> None:
        board = HexBoard[str].parallelogram(cols, rows)
        self.hexes: dict[str, Hex] = {hex_.key: hex_ for hex_ in board.hexes()}
        """Each cell's (immutable, shared) hex by its key, row by row."""
        self.neighbours: dict[str, tuple[str, ...]] = {
            hex_.key: tuple(neighbour.key for neighbour in board.neighbours(hex_)) for hex_ in board.hexes()
        }
        """Each cell's on-board neighbours."""
        self.edges: dict[Connects, dict[str, tuple[bool, bool]]] = {
            connects: {hex_.key: edges_touched(hex_, connects, cols, rows) for hex_ in board.hexes()}
            for connects in Connects
        }
        """For each pair of edges, whether each cell lies on the first and on the second."""


@lru_cache(maxsize=64)
def adjacency(cols: int, rows: int) -> Adjacency:
    """The (shared, read-only) adjacency of a ``cols`` x ``rows`` board."""
    return Adjacency(cols, rows)


def group_of(
    cells: Mapping[str, str | None], start: str, neighbours: Mapping[str, tuple[str, ...]]
) -> list[str]:
    """The keys of the connected stones of ``start``'s owner that include ``start``, in search order."""
    owner = cells[start]
    seen = {start}
    order = [start]
    for key in order:  # grows while it is walked: a breadth-first search
        for neighbour in neighbours[key]:
            if neighbour not in seen and cells[neighbour] == owner:
                seen.add(neighbour)
                order.append(neighbour)
    return order


def winning_chain(
    board: HexBoard[str], start: Hex, connects: Connects, cols: int, rows: int
) -> list[Hex] | None:
    """The group of the stone at ``start`` if it joins the edges ``connects`` names, else None.

    The chain is sorted row by row, then by column.
    """
    around = adjacency(cols, rows)
    group = group_of(board.cells, start.key, around.neighbours)
    edges = around.edges[connects]
    if any(edges[key][0] for key in group) and any(edges[key][1] for key in group):
        return sorted((Hex.parse(key) for key in group), key=lambda hex_: (hex_.r, hex_.q))
    return None
