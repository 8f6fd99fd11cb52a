"""Boards in a game state: generic plain boards are hydrated automatically, and come back plain."""

from enum import StrEnum
from typing import Generic, TypeVar

import orjson
import pytest
from pydantic import Field
from tabletop import GameState, Hydrated, Model, PlayerState, PrngState
from tabletop.boards import (
    Hex,
    HexBoard,
    HydratedHexBoard,
    HydratedSquareBoard,
    NodeSet,
    Square,
    SquareBoard,
)


class Phase(StrEnum):
    PLAY = "Play"


class Stone(Model):
    color: str
    """Whose stone."""


class HydratedStone(Stone, Hydrated[Stone]):
    def is_black(self) -> bool:
        return self.color == "black"


def three_by_three() -> SquareBoard[str]:
    return SquareBoard[str](width=3, height=3)


class BoardGameState(GameState[PlayerState, Phase]):
    board: SquareBoard[str] = Field(default_factory=three_by_three)
    """The marks."""
    hexes: HexBoard[Stone] | None = None
    """An optional hex board of stones."""
    claimed: NodeSet[Square] = Field(default_factory=NodeSet[Square])
    """Claimed squares."""


class HydratedBoardGameState(BoardGameState, Hydrated[BoardGameState]):
    pass


@pytest.fixture
def state_data() -> dict[str, object]:
    """A serialized state holding a square board, a hex board of stones and a node set."""
    hexes = HexBoard[Stone].hexagon(1)
    hexes.set(Hex(q=0, r=0), Stone(color="black"))
    plain = BoardGameState(
        id="s",
        game_id="g",
        players=[PlayerState(player_id="p1")],
        prng=PrngState(seed=1),
        machine_state=Phase.PLAY,
        hexes=hexes,
        claimed=NodeSet[Square](nodes=[Square(x=1, y=1)]),
    )
    plain.board.set(1, 1, "X")
    data: dict[str, object] = orjson.loads(plain.model_dump_json())
    return data


def test_a_hydrated_state_holds_hydrated_boards_with_hydrated_cells(state_data: dict[str, object]) -> None:
    state = HydratedBoardGameState.hydrate(state_data)
    assert isinstance(state.board, HydratedSquareBoard)
    assert state.board.get(1, 1) == "X"
    assert (
        state.board.shortest_path(Square(x=0, y=0), Square(x=2, y=2), passable=lambda v: v is None)
        is not None
    )
    assert isinstance(state.hexes, HydratedHexBoard)
    stone = state.hexes.get(Hex(q=0, r=0))
    assert isinstance(stone, HydratedStone)
    assert stone.is_black()
    assert state.claimed.nodes == [Square(x=1, y=1)]


def test_the_default_board_of_a_new_hydrated_state_is_hydrated() -> None:
    state = HydratedBoardGameState(
        id="s", game_id="g", players=[], prng=PrngState(seed=1), machine_state=Phase.PLAY
    )
    assert isinstance(state.board, HydratedSquareBoard)
    assert state.board.empty_cells() == state.board.squares()


def test_dehydrating_gives_plain_parametrized_boards_back(state_data: dict[str, object]) -> None:
    state = HydratedBoardGameState.hydrate(state_data)
    plain = state.dehydrate()
    assert type(plain.board) is SquareBoard[str]
    assert type(plain.hexes) is HexBoard[Stone]
    assert type(plain.hexes.get(Hex(q=0, r=0))) is Stone
    assert isinstance(state.board, HydratedSquareBoard)
    assert type(state.board.dehydrate()) is SquareBoard[str]
    assert orjson.loads(plain.model_dump_json()) == state_data


def test_hydrated_boards_never_alias_their_source(state_data: dict[str, object]) -> None:
    source = HydratedBoardGameState.hydrate(state_data)
    copy = HydratedBoardGameState.hydrate(source)
    copy.board.set(0, 0, "O")
    assert source.board.get(0, 0) is None
    assert isinstance(source.board, HydratedSquareBoard)
    plain_board = source.board.dehydrate()
    plain_board.set(2, 2, "O")
    assert source.board.get(2, 2) is None


def test_a_plain_board_assigned_into_a_hydrated_field_is_hydrated() -> None:
    state = HydratedBoardGameState(
        id="s",
        game_id="g",
        players=[],
        prng=PrngState(seed=1),
        machine_state=Phase.PLAY,
        board=SquareBoard[str](width=2, height=2),
    )
    assert isinstance(state.board, HydratedSquareBoard)
    assert state.board.width == 2


T = TypeVar("T")
U = TypeVar("U")


class Pair(Model, Generic[T]):
    left: T
    """Left item."""


def test_a_generic_hydrated_class_must_keep_its_plain_models_parameters() -> None:
    with pytest.raises(TypeError, match="same type parameters"):

        class HydratedPair(Pair[T], Hydrated[Pair[T]], Generic[T, U]):
            pass
