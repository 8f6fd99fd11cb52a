"""Hex against OpenSpiel's ``hex``, move for move, in the slow tier.

Random games drive our engine and pyspiel's C++ game together: at every state both list the
same set of cells (ours as ``(q, r)``, theirs as OpenSpiel's action number ``r * cols + q``,
mapped by meaning, not by index), the same player is to move, and the final returns are equal.
A rule broken on purpose in a test copy (monkeypatched here, never in the shipped code) makes
the cross-check fail, so it is shown that it can.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pyspiel
import pytest
from tabletop import GameEngine, GameResult
from tabletop.boards import Hex
from tabletop.testing import make_game
from tabletop_hex import definition
from tabletop_hex.actions.place_stone import HydratedPlaceStone
from tabletop_hex.components import connection
from tabletop_hex.components.sides import Connects
from tabletop_hex.model import game_state
from tabletop_hex.model.config import HexConfig

SEATS = ["p1", "p2"]
"""Our seats in OpenSpiel's player order: p1 is player 0 (black, first)."""

SIZES = [
    (2, 2, 40),
    (3, 3, 80),
    (4, 4, 80),
    (5, 5, 80),
    (7, 7, 60),
    (11, 11, 40),
    (3, 5, 50),
    (6, 4, 50),
    (9, 2, 40),
]
"""(columns, rows, games): 520 games."""


def _openspiel_game(cols: int, rows: int) -> pyspiel.Game:
    return pyspiel.load_game("hex", {"num_cols": cols, "num_rows": rows})


def _cells(actions: list[int], cols: int) -> set[tuple[int, int]]:
    return {(action % cols, action // cols) for action in actions}


def _mismatches(cols: int, rows: int, seed: int) -> Iterator[str]:
    """Play one random game on both sides; yield every difference (and stop at the first)."""
    engine = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed, config=HexConfig(num_cols=cols, num_rows=rows))
    ours = engine.start(game).state
    theirs = _openspiel_game(cols, rows).new_initial_state()
    rng = random.Random(seed)
    while True:
        if ours.result is not None or theirs.is_terminal():
            break
        (player_id,) = ours.active_player_ids
        if SEATS.index(player_id) != theirs.current_player():
            yield f"to move: ours {player_id}, theirs {theirs.current_player()}"
            return
        legal = engine.legal_actions(ours, player_id, game)
        our_cells = {(a.cell.q, a.cell.r) for a in legal if isinstance(a, HydratedPlaceStone)}
        their_cells = _cells(theirs.legal_actions(), cols)
        if our_cells != their_cells or len(legal) != len(our_cells):
            yield f"legal cells differ after {ours.action_count} moves: {sorted(our_cells ^ their_cells)}"
            return
        number = rng.choice(theirs.legal_actions())
        q, r = number % cols, number // cols
        move = {
            "id": f"m{ours.action_count}",
            "game_id": game.id,
            "type": "PlaceStone",
            "player_id": player_id,
        }
        ours = engine.run({**move, "cell": {"q": q, "r": r}}, ours, game).state
        theirs.apply_action(number)
    if ours.result is None or not theirs.is_terminal():
        yield f"one side ended, the other not: ours {ours.result}, theirs terminal {theirs.is_terminal()}"
        return
    assert ours.result is GameResult.WIN
    our_returns = [1.0 if seat in ours.winning_player_ids else -1.0 for seat in SEATS]
    if our_returns != list(theirs.returns()):
        yield f"returns differ: ours {our_returns}, theirs {theirs.returns()}"


def _cross_check(sizes: list[tuple[int, int, int]]) -> tuple[int, list[str]]:
    played, failures = 0, []
    for cols, rows, games in sizes:
        for seed in range(games):
            played += 1
            failures += [f"{cols}x{rows} seed {seed}: {m}" for m in _mismatches(cols, rows, seed)]
    return played, failures


@pytest.mark.slow
def test_random_games_match_openspiel_move_for_move() -> None:
    played, failures = _cross_check(SIZES)
    assert played >= 500
    assert failures == []


class _NoAcuteDiagonal(connection.Adjacency):
    """A broken rule: the board loses the (q-1, r+1) / (q+1, r-1) adjacency."""

    def __init__(self, cols: int, rows: int) -> None:
        super().__init__(cols, rows)
        for key, around in self.neighbours.items():
            q, r = Hex.parse(key).q, Hex.parse(key).r
            bad = {f"{q - 1},{r + 1}", f"{q + 1},{r - 1}"}
            self.neighbours[key] = tuple(n for n in around if n not in bad)


def _break_adjacency(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(connection, "adjacency", _NoAcuteDiagonal)


def _swap_the_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(game_state, "SEAT_SIDES", (Connects.LEFT_RIGHT, Connects.TOP_BOTTOM))


@pytest.mark.slow
@pytest.mark.parametrize("broken_rule", [_break_adjacency, _swap_the_sides])
def test_a_broken_rule_makes_the_cross_check_fail(
    monkeypatch: pytest.MonkeyPatch, broken_rule: object
) -> None:
    assert callable(broken_rule)
    broken_rule(monkeypatch)
    played, failures = _cross_check([(3, 3, 30), (5, 5, 30)])
    assert played == 60 and failures, "the cross-check did not notice the broken rule"
    monkeypatch.undo()
    assert _cross_check([(3, 3, 30), (5, 5, 30)]) == (60, [])  # the shipped rules pass the same games
