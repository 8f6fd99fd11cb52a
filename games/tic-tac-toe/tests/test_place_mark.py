"""PlaceMark: the player on turn marks an empty square of the board, and nothing else."""

from collections.abc import Callable

import pytest
from tabletop import IllegalActionError
from tabletop.boards import Square
from tabletop.testing import GameHarness
from tabletop_tic_tac_toe.actions.place_mark import HydratedPlaceMark
from tabletop_tic_tac_toe.model.config import TicTacToeConfig
from tabletop_tic_tac_toe.model.game_state import HydratedTicTacToeGameState, TicTacToeGameState

Harness = GameHarness[HydratedTicTacToeGameState, TicTacToeConfig]
Draw = Callable[[TicTacToeGameState, str], None]


def _mark(harness: Harness, player: str, x: int, y: int) -> HydratedPlaceMark:
    return harness.action(HydratedPlaceMark, player, square={"x": x, "y": y})


def test_apply_marks_the_square_with_the_players_id(harness: Harness) -> None:
    ctx = harness.context()
    _mark(harness, "p1", 2, 1).apply(ctx)
    assert ctx.state.board.get(2, 1) == "p1"
    assert ctx.state.board.positions_of("p1") == [Square(x=2, y=1)]
    assert harness.state.board.empty_cells() == harness.state.board.squares()  # the harness is untouched


def test_check_rejects_a_marked_square(harness: Harness, draw: Draw) -> None:
    ctx = harness.context()
    draw(ctx.state, "... .O. ...")
    with pytest.raises(IllegalActionError) as caught:
        _mark(harness, "p1", 1, 1).check(ctx)
    assert (caught.value.code, caught.value.path) == ("square-taken", "square")
    assert ctx.state.board.get(1, 1) == "p2"


@pytest.mark.parametrize(("x", "y"), [(3, 0), (0, 3), (-1, 1), (1, -1)])
def test_check_rejects_a_square_off_the_board(harness: Harness, x: int, y: int) -> None:
    with pytest.raises(IllegalActionError) as caught:
        _mark(harness, "p1", x, y).check(harness.context())
    assert (caught.value.code, caught.value.path) == ("off-board", "square")


def test_the_engine_refuses_a_taken_square_and_changes_nothing(harness: Harness) -> None:
    harness.play(_mark(harness, "p1", 0, 0))
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(_mark(harness, "p2", 0, 0))
    assert caught.value.code == "square-taken"
    assert harness.state.model_dump_json() == before


@pytest.mark.parametrize(
    ("payload", "code", "path"),
    [({}, "missing-field", "square"), ({"square": {"x": "a", "y": 0}}, "invalid-value", "square.x")],
)
def test_malformed_squares_are_rejected_at_the_boundary(
    harness: Harness, payload: dict[str, object], code: str, path: str
) -> None:
    raw = {"id": "x1", "game_id": "game-1", "type": "PlaceMark", "player_id": "p1", **payload}
    with pytest.raises(IllegalActionError) as caught:
        harness.play(raw)
    assert (caught.value.code, caught.value.path) == (code, path)


def test_enumerate_offers_every_empty_square_to_the_player_on_turn(harness: Harness, draw: Draw) -> None:
    state = harness.engine.copy_state(harness.state)
    assert [a.square for a in HydratedPlaceMark.enumerate(state, "p1")] == state.board.squares()
    draw(state, "XO. .X. O..")
    offered = [(a.square.x, a.square.y) for a in HydratedPlaceMark.enumerate(state, "p1")]
    assert offered == [(2, 0), (0, 1), (2, 1), (1, 2), (2, 2)]
    assert all(a.player_id == "p1" and a.id == "" for a in HydratedPlaceMark.enumerate(state, "p1"))


@pytest.mark.parametrize(
    ("player", "picture", "expected"),
    [("p1", "... ... ...", 9), ("p2", "... ... ...", 0), ("p1", "XO. .X. O..", 5), ("p1", "XOX XOO OX.", 1)],
)
def test_legal_marks_need_the_turn_and_an_empty_square(
    harness: Harness, draw: Draw, player: str, picture: str, expected: int
) -> None:
    state = harness.engine.copy_state(harness.state)
    draw(state, picture)
    legal = harness.engine.legal_actions(state, player, harness.game)
    assert len(legal) == expected and all(isinstance(a, HydratedPlaceMark) for a in legal)
