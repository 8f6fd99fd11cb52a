"""Hex's invariants: stones alternate, belong to the seats, and a winning chain really joins its edges."""

from collections.abc import Iterator

from tabletop.boards import HexBoard

from tabletop_hex.components.connection import adjacency, group_of
from tabletop_hex.components.sides import SEAT_SIDES
from tabletop_hex.model.config import HexConfig
from tabletop_hex.model.game_state import HexGameState


def invariants(state: HexGameState) -> Iterator[str]:
    """One line per broken rule.

    The board is the ``cols`` x ``rows`` parallelogram; every stone is a seat's; the first seat
    has as many stones as the second or one more; the seats join the edges of their turn order;
    a winning chain is one whole group of its owner's stones touching both their edges, and a
    game with one is over. A game may end without one: a seat that runs out of time in a hosted
    match loses (``TimeExpired``), whatever the board shows.
    """
    expected = HexBoard[str].parallelogram(state.cols, state.rows).cells.keys()
    if state.board.cells.keys() != expected:
        yield f"the board's cells are not the {state.cols} x {state.rows} parallelogram"
        return
    seats = [player.player_id for player in state.players]
    counts = dict.fromkeys(seats, 0)
    for key, owner in state.board.cells.items():
        if owner is None:
            continue
        if owner not in counts:
            yield f"the stone at {key} belongs to {owner}, who is not a seat"
            continue
        counts[owner] += 1
    if len(seats) == 2 and counts[seats[0]] - counts[seats[1]] not in (0, 1):
        yield f"{seats[0]} has {counts[seats[0]]} stones and {seats[1]} {counts[seats[1]]}"
    for player, connects in zip(state.players, SEAT_SIDES, strict=False):
        if player.connects is not connects:
            yield f"{player.player_id} joins {player.connects}, not {connects}"
    yield from _chain_rules(state)


def _chain_rules(state: HexGameState) -> Iterator[str]:
    over = state.result is not None
    if not state.winning_chain:
        return  # (over without one: lost on time)
    if not over:
        yield "there is a winning chain but the game goes on"
    around = adjacency(state.cols, state.rows)
    keys = [cell.key for cell in state.winning_chain]
    owner = state.board.cells.get(keys[0])
    if owner is None:
        yield "the winning chain starts on an empty cell"
        return
    if sorted(group_of(state.board.cells, keys[0], around.neighbours)) != sorted(keys):
        yield "the winning chain is not one whole group of its owner's stones"
        return
    connects = next((p.connects for p in state.players if p.player_id == owner), None)
    if connects is None:
        return
    edges = around.edges[connects]
    if not (any(edges[key][0] for key in keys) and any(edges[key][1] for key in keys)):
        yield f"the winning chain does not join {owner}'s edges ({connects})"
    if over and state.winning_player_ids != [owner]:
        yield f"the chain is {owner}'s but the winners are {state.winning_player_ids}"


def config_invariants(state: HexGameState, config: HexConfig) -> Iterator[str]:
    """The board has the config's columns and rows."""
    if (state.cols, state.rows) != (config.cols, config.rows):
        yield f"the board is {state.cols} x {state.rows}, its config {config.cols} x {config.rows}"
