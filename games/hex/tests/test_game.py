"""Hex end to end: board sizes, whole games, bots that play it to the end, and determinism."""

from __future__ import annotations

import orjson
import pytest
from pydantic import ValidationError
from tabletop import GameEngine, GameResult, IllegalActionError
from tabletop.boards import Hex
from tabletop.bots import Bot, MctsBot, RandomBot, playout
from tabletop.testing import GameHarness, assert_deterministic, make_game
from tabletop_hex import definition
from tabletop_hex.actions.place_stone import HydratedPlaceStone
from tabletop_hex.definition.states import MachineState
from tabletop_hex.model.config import HexConfig
from tabletop_hex.model.game_state import HydratedHexGameState

Harness = GameHarness[HydratedHexGameState, HexConfig]

# p1 and p2 alternate, p1 first, on a 3 x 3 board: (q, r) of each move.
P1_WINS_DOWN_THE_MIDDLE = [(1, 0), (0, 0), (1, 1), (0, 1), (1, 2)]
P2_WINS_ACROSS = [(0, 0), (0, 1), (2, 2), (1, 1), (1, 0), (2, 1)]


def test_the_definition_is_named_after_the_entry_point() -> None:
    assert definition.name == "hex"
    assert (definition.min_players, definition.max_players) == (2, 2)


@pytest.mark.parametrize(
    ("options", "cols", "rows"),
    [
        ({}, 11, 11),
        ({"board_size": 5}, 5, 5),
        ({"num_cols": 3, "num_rows": 5}, 3, 5),
        ({"board_size": 7, "num_rows": 4}, 7, 4),
    ],
)
def test_the_board_has_openspiels_size(options: dict[str, int], cols: int, rows: int) -> None:
    config = HexConfig.model_validate(options)
    harness = GameHarness(definition, players=2, config=config)
    assert (harness.state.cols, harness.state.rows) == (cols, rows)
    assert len(harness.state.board.empty_cells()) == cols * rows
    assert harness.state.board.hexes()[-1] == Hex(q=cols - 1, r=rows - 1)


@pytest.mark.parametrize(
    "options", [{"board_size": 1}, {"num_cols": 1}, {"num_rows": 27}, {"board_size": 0}, {"swap": True}]
)
def test_boards_openspiel_cannot_finish_are_refused(options: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        HexConfig.model_validate(options)


def _play(harness: Harness, moves: list[tuple[int, int]]) -> HydratedHexGameState:
    for q, r in moves:
        (player,) = harness.state.active_player_ids
        harness.play(harness.action(HydratedPlaceStone, player, cell={"q": q, "r": r}))
    return harness.state


@pytest.mark.parametrize(("moves", "winner"), [(P1_WINS_DOWN_THE_MIDDLE, "p1"), (P2_WINS_ACROSS, "p2")])
def test_whole_games_through_the_engine(moves: list[tuple[int, int]], winner: str) -> None:
    harness = GameHarness(definition, players=2, config=HexConfig(board_size=3))
    state = _play(harness, moves)
    assert state.machine_state is MachineState.GAME_OVER
    assert (state.result, state.winning_player_ids, state.active_player_ids) == (GameResult.WIN, [winner], [])
    assert state.winner() == winner and all(state.board.get(cell) == winner for cell in state.winning_chain)
    assert [stone.metadata.won for stone in harness.recorded(HydratedPlaceStone) if stone.metadata] == [
        False
    ] * (len(moves) - 1) + [True]
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedPlaceStone, "p2", cell={"q": 2, "r": 0}))
    assert caught.value.code == "game-over"


def test_a_player_may_not_move_out_of_turn(harness: Harness) -> None:
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedPlaceStone, "p2", cell={"q": 0, "r": 0}))
    assert caught.value.code == "player-not-active"


@pytest.mark.parametrize(("size", "seed"), [(2, 1), (3, 2), (5, 3), (11, 4), (11, 5)])
def test_random_bots_play_to_the_first_connection(size: int, seed: int) -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed, config=HexConfig(board_size=size))
    results = list(playout(engine, game, RandomBot(engine, seed), max_actions=1_000))
    final = results[-1].state
    assert final.result is GameResult.WIN and final.active_player_ids == []
    assert all(result.state.winning_chain == [] for result in results[:-1])  # the first connection ends it
    assert final.winning_player_ids == [final.winner()]
    assert size * 2 - 1 <= final.action_count <= size * size


@pytest.mark.parametrize("seed", [1, 2])
def test_mcts_bots_play_a_whole_game(seed: int) -> None:
    engine: GameEngine[HydratedHexGameState, HexConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed, config=HexConfig(board_size=4))
    bots: dict[str, Bot[HydratedHexGameState, HexConfig]] = {
        "p1": MctsBot(engine, iterations=60, seed=seed),
        "p2": RandomBot(engine, seed=seed) if seed == 1 else MctsBot(engine, iterations=60, seed=7),
    }
    final = list(playout(engine, game, bots))[-1].state
    assert final.result is GameResult.WIN and len(final.winning_chain) >= 4


@pytest.mark.parametrize("seed", [0, 42, 2**32 - 1])
def test_same_seed_and_actions_give_byte_identical_states(seed: int) -> None:
    # Two playouts from one seed and one PRNG key; a failure names the first step that differs.
    assert_deterministic(definition, players=2, seed=seed)


def test_same_seed_gives_byte_identical_random_games() -> None:
    def run(seed: int) -> list[bytes]:
        engine = GameEngine(definition)
        game = make_game(definition, seed=seed, config=HexConfig(board_size=5))
        return [
            orjson.dumps(result.state.model_dump(mode="json"))
            for result in playout(engine, game, RandomBot(engine, seed))
        ]

    assert run(7) == run(7)
    assert run(7) != run(8)
