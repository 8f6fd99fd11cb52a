"""Winning chains: the group of the stone just placed wins when it joins its owner's two edges."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from tabletop.boards import Hex, HydratedHexBoard
from tabletop.testing import GameHarness
from tabletop_hex.components.sides import Connects, cell_name
from tabletop_hex.model.config import HexConfig
from tabletop_hex.model.game_state import HexGameState, HydratedHexGameState

Harness = GameHarness[HydratedHexGameState, HexConfig]
Draw = Callable[[HexGameState, str], None]
MakeHarness = Callable[[int, int], Harness]


def _chain(state: HydratedHexGameState, q: int, r: int) -> list[tuple[int, int]] | None:
    chain = state.chain_through(Hex(q=q, r=r))
    return None if chain is None else [(cell.q, cell.r) for cell in chain]


def test_the_seats_join_the_edges_openspiel_gives_them(harness: Harness) -> None:
    assert [p.connects for p in harness.state.players] == [Connects.TOP_BOTTOM, Connects.LEFT_RIGHT]


@pytest.mark.parametrize(
    ("cols", "rows", "picture", "cell", "chain"),
    [
        # p1 (X) joins the top row to the bottom row.
        (3, 3, ".X. .X. .X.", (1, 2), [(1, 0), (1, 1), (1, 2)]),
        # A step down-left, (q-1, r+1), is a neighbour: the acute diagonal joins.
        (3, 3, "..X .X. X..", (0, 2), [(2, 0), (1, 1), (0, 2)]),
        # p2 (O) joins the left column to the right column.
        (3, 3, "... OOO ...", (2, 1), [(0, 1), (1, 1), (2, 1)]),
        (3, 3, "..O .O. O..", (1, 1), [(2, 0), (1, 1), (0, 2)]),
        # The smallest board: two stones on the short diagonal.
        (2, 2, ".X X.", (1, 0), [(1, 0), (0, 1)]),
        (2, 2, ".O O.", (0, 1), [(1, 0), (0, 1)]),
        # Rectangular boards: p1 needs `rows` rows, p2 `cols` columns.
        (5, 2, "..X.. .X...", (2, 0), [(2, 0), (1, 1)]),
        (2, 5, ".O O. .. .. ..", (1, 0), [(1, 0), (0, 1)]),
        # A winding chain, with a branch: the whole group is the chain.
        (4, 4, "X... XXX. ..X. .XX.", (1, 3), [(0, 0), (0, 1), (1, 1), (2, 1), (2, 2), (1, 3), (2, 3)]),
    ],
)
def test_a_chain_joining_the_owners_edges_wins(
    small: MakeHarness,
    draw: Draw,
    cols: int,
    rows: int,
    picture: str,
    cell: tuple[int, int],
    chain: list[tuple[int, int]],
) -> None:
    state = small(cols, rows).state
    draw(state, picture)
    assert _chain(state, *cell) == sorted(chain, key=lambda c: (c[1], c[0]))


@pytest.mark.parametrize(
    ("cols", "rows", "picture", "cell"),
    [
        (3, 3, "XXX ... ...", (0, 0)),  # p1's row joins left and right: p2's edges, not p1's
        (3, 3, "O.. O.. O..", (0, 0)),  # p2's column joins top and bottom: p1's edges
        (3, 3, "X.. .X. ..X", (1, 1)),  # (q+1, r+1) is not a neighbour: three separate stones
        (3, 3, "O.. .O. ..O", (1, 1)),
        (2, 2, "X. .X", (0, 0)),  # the long diagonal of a 2 x 2 board does not touch
        (3, 3, ".X. .O. .X.", (1, 0)),  # blocked by the other colour
        (4, 3, "...X ..X. ....", (3, 0)),  # the obtuse corner is on the top edge (and the right)
        (4, 3, "...O ..O. ....", (3, 0)),
        (3, 3, "X.X .X. ...", (1, 1)),  # touches the top only
    ],
)
def test_a_chain_that_misses_an_edge_does_not_win(
    small: MakeHarness, draw: Draw, cols: int, rows: int, picture: str, cell: tuple[int, int]
) -> None:
    state = small(cols, rows).state
    draw(state, picture)
    assert _chain(state, *cell) is None


def test_an_empty_cell_has_no_chain(small: MakeHarness) -> None:
    assert _chain(small(3, 3).state, 1, 1) is None


def _oracle(board: HydratedHexBoard[str], cell: Hex, connects: Connects, cols: int, rows: int) -> bool:
    """A breadth-first search of the framework's board, written independently of the game's."""
    owner = board.get(cell)
    group = board.reachable(cell, passable=lambda value: value == owner)
    if connects is Connects.TOP_BOTTOM:
        return any(h.r == 0 for h in group) and any(h.r == rows - 1 for h in group)
    return any(h.q == 0 for h in group) and any(h.q == cols - 1 for h in group)


@pytest.mark.parametrize(("cols", "rows"), [(2, 2), (3, 5), (5, 3), (7, 7)])
def test_chains_match_a_breadth_first_oracle_on_random_boards(
    small: MakeHarness, cols: int, rows: int
) -> None:
    rng = random.Random(cols * 100 + rows)
    state = small(cols, rows).state
    sides = {p.player_id: p.connects for p in state.players}
    board = state.board
    assert isinstance(board, HydratedHexBoard)
    wins = 0
    for _ in range(150):
        for hex_ in state.board.hexes():
            state.board.set(hex_, rng.choice(["p1", "p2", None]))
        for hex_ in state.board.hexes():
            owner = state.board.get(hex_)
            if owner is None:
                continue
            won = state.chain_through(hex_) is not None
            assert won == _oracle(board, hex_, sides[owner], cols, rows), (cell_name(hex_), state.board)
            wins += won
    assert wins > 0  # the random boards did reach winning chains


@pytest.mark.parametrize(
    ("cell", "name"), [(Hex(q=0, r=0), "a1"), (Hex(q=2, r=2), "c3"), (Hex(q=10, r=8), "k9")]
)
def test_cells_are_named_as_openspiel_names_them(cell: Hex, name: str) -> None:
    assert cell_name(cell) == name
