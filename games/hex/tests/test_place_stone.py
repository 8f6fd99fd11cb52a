"""PlaceStone: the player on turn puts a stone on an empty cell of the board, and nothing else."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tabletop import IllegalActionError
from tabletop.boards import Hex
from tabletop.testing import GameHarness
from tabletop_hex.actions.place_stone import HydratedPlaceStone
from tabletop_hex.model.config import HexConfig
from tabletop_hex.model.game_state import HexGameState, HydratedHexGameState

Harness = GameHarness[HydratedHexGameState, HexConfig]
Draw = Callable[[HexGameState, str], None]
MakeHarness = Callable[[int, int], Harness]


def _stone(harness: Harness, player: str, q: int, r: int) -> HydratedPlaceStone:
    return harness.action(HydratedPlaceStone, player, cell={"q": q, "r": r})


def test_apply_puts_the_players_stone_on_the_cell(harness: Harness) -> None:
    ctx = harness.context()
    action = _stone(harness, "p1", 2, 2)
    action.apply(ctx)
    assert ctx.state.board.get(Hex(q=2, r=2)) == "p1"
    assert ctx.state.board.positions_of("p1") == [Hex(q=2, r=2)]
    assert action.metadata is not None and (action.metadata.cell_name, action.metadata.won) == ("c3", False)
    assert len(harness.state.board.empty_cells()) == 121  # the harness's state is untouched


def test_check_refuses_an_occupied_cell_with_the_field_path(small: MakeHarness, draw: Draw) -> None:
    harness = small(3, 3)
    ctx = harness.context()
    draw(ctx.state, "... .O. ...")
    with pytest.raises(IllegalActionError) as caught:
        _stone(harness, "p1", 1, 1).check(ctx)
    assert (caught.value.code, caught.value.path) == ("cell-taken", "cell")
    assert "b2" in caught.value.message
    assert ctx.state.board.get(Hex(q=1, r=1)) == "p2"


@pytest.mark.parametrize(("q", "r"), [(11, 0), (0, 11), (-1, 3), (3, -1)])
def test_check_refuses_a_cell_off_the_board(harness: Harness, q: int, r: int) -> None:
    with pytest.raises(IllegalActionError) as caught:
        _stone(harness, "p1", q, r).check(harness.context())
    assert (caught.value.code, caught.value.path) == ("off-board", "cell")


def test_the_engine_refuses_an_occupied_cell_and_changes_nothing(harness: Harness) -> None:
    harness.play(_stone(harness, "p1", 5, 5))
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(_stone(harness, "p2", 5, 5))
    assert (caught.value.code, caught.value.path) == ("cell-taken", "cell")
    assert harness.state.model_dump_json() == before


@pytest.mark.parametrize(
    ("payload", "code", "path"),
    [
        ({}, "missing-field", "cell"),
        ({"cell": {"q": "a", "r": 0}}, "invalid-value", "cell.q"),
        ({"cell": {"q": 0, "r": 0, "s": 0}}, "unexpected-field", "cell.s"),
    ],
)
def test_malformed_cells_are_refused_at_the_boundary(
    harness: Harness, payload: dict[str, object], code: str, path: str
) -> None:
    raw = {"id": "x1", "game_id": "game-1", "type": "PlaceStone", "player_id": "p1", **payload}
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(raw)
    assert (caught.value.code, caught.value.path) == (code, path)
    assert harness.state.model_dump_json() == before


def test_enumerate_offers_every_empty_cell_row_by_row(small: MakeHarness, draw: Draw) -> None:
    harness = small(3, 2)
    state = harness.engine.copy_state(harness.state)
    draw(state, "X.O .X.")
    offered = [(a.cell.q, a.cell.r) for a in HydratedPlaceStone.enumerate(state, "p2")]
    assert offered == [(1, 0), (0, 1), (2, 1)]
    assert all(a.player_id == "p2" for a in HydratedPlaceStone.enumerate(state, "p2"))


@pytest.mark.parametrize(("cols", "rows"), [(11, 11), (3, 5), (7, 2)])
def test_the_action_space_numbers_cells_as_openspiel_does(small: MakeHarness, cols: int, rows: int) -> None:
    harness = small(cols, rows)
    space = HydratedPlaceStone.action_space(harness.game)
    assert len(space) == cols * rows
    for number, entry in enumerate(space):
        assert entry == {"cell": {"q": number % cols, "r": number // cols}}


@pytest.mark.parametrize(
    ("player", "expected"),
    [("p1", 121), ("p2", 0)],
)
def test_only_the_player_on_turn_has_legal_stones(harness: Harness, player: str, expected: int) -> None:
    legal = harness.engine.legal_actions(harness.state, player, harness.game)
    assert len(legal) == expected and all(isinstance(a, HydratedPlaceStone) for a in legal)


def test_enumerate_builds_the_same_candidates_as_the_plain_path(small: MakeHarness, draw: Draw) -> None:
    # enumerate reads the board's shared hexes instead of parsing each empty cell's key.
    harness = small(4, 3)
    state = harness.engine.copy_state(harness.state)
    draw(state, "X..O .OX. ....")
    fast = [a.model_dump() for a in HydratedPlaceStone.enumerate(state, "p1")]
    plain = [
        HydratedPlaceStone.candidate(state, "p1", cell=cell).model_dump()
        for cell in state.board.empty_cells()
    ]
    assert fast == plain and len(fast) == 8
