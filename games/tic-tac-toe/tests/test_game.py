"""Tic-tac-toe end to end: whole games through the engine, seats, and determinism."""

import orjson
import pytest
from tabletop import GameEngine, GameResult, IllegalActionError
from tabletop.bots import RandomBot, playout
from tabletop.testing import GameHarness, make_game
from tabletop_tic_tac_toe import definition
from tabletop_tic_tac_toe.actions.place_mark import HydratedPlaceMark
from tabletop_tic_tac_toe.definition.states import MachineState
from tabletop_tic_tac_toe.model.config import TicTacToeConfig
from tabletop_tic_tac_toe.model.game_state import HydratedTicTacToeGameState

Harness = GameHarness[HydratedTicTacToeGameState, TicTacToeConfig]

# p1 and p2 alternate, p1 first: (x, y) of each move.
X_WINS_THE_TOP_ROW = [(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)]
O_WINS_A_DIAGONAL = [(0, 0), (2, 0), (1, 0), (1, 1), (2, 2), (0, 2)]
DRAW = [(0, 0), (1, 0), (2, 0), (1, 1), (0, 1), (0, 2), (2, 1), (2, 2), (1, 2)]


def _play(harness: Harness, moves: list[tuple[int, int]]) -> HydratedTicTacToeGameState:
    for x, y in moves:
        (player,) = harness.state.active_player_ids
        harness.play(harness.action(HydratedPlaceMark, player, square={"x": x, "y": y}))
    return harness.state


@pytest.mark.parametrize(
    ("moves", "result", "winners"),
    [
        (X_WINS_THE_TOP_ROW, GameResult.WIN, ["p1"]),
        (O_WINS_A_DIAGONAL, GameResult.WIN, ["p2"]),
        (DRAW, GameResult.DRAW, []),
    ],
)
def test_whole_games_through_the_engine(
    harness: Harness, moves: list[tuple[int, int]], result: GameResult, winners: list[str]
) -> None:
    state = _play(harness, moves)
    assert state.machine_state is MachineState.GAME_OVER
    assert (state.result, state.winning_player_ids, state.active_player_ids) == (result, winners, [])
    assert state.action_count == len(moves)
    assert [action.index for action in harness.log] == list(range(len(moves)))
    assert [action.player_id for action in harness.log] == ["p1", "p2"] * (len(moves) // 2) + ["p1"] * (
        len(moves) % 2
    )
    assert len(state.board.empty_cells()) == 9 - len(moves)


def test_no_move_is_accepted_after_the_game_ends(harness: Harness) -> None:
    _play(harness, X_WINS_THE_TOP_ROW)
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedPlaceMark, "p2", square={"x": 2, "y": 2}))
    assert caught.value.code == "game-over"
    assert harness.legal_actions("p2") == []


def test_a_player_may_not_move_out_of_turn(harness: Harness) -> None:
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedPlaceMark, "p2", square={"x": 0, "y": 0}))
    assert caught.value.code == "player-not-active"


@pytest.mark.parametrize("players", [1, 3])
def test_the_game_takes_exactly_two_players(players: int) -> None:
    with pytest.raises(IllegalActionError) as caught:
        GameEngine(definition).start(make_game(definition, players=players))
    assert caught.value.code == "invalid-game"


@pytest.mark.parametrize("seed", range(12))
def test_random_games_end_by_a_line_or_a_full_board(seed: int) -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed)
    results = list(playout(engine, game, RandomBot(engine, seed)))
    state = results[-1].state
    assert 5 <= state.action_count == len(results) - 1 <= 9
    if state.result is GameResult.DRAW:
        assert state.board.is_full() and state.winner() is None
    else:
        assert state.winning_player_ids == [state.winner()]
        assert all(r.state.winner() is None for r in results[:-1])  # the first line ends the game


def _replay(seed: int, moves: list[tuple[int, int]]) -> list[bytes]:
    harness = GameHarness(definition, players=2, seed=seed)
    states = [harness.state]
    for move in moves:
        states.append(_play(harness, [move]))
    return [orjson.dumps(state.model_dump(mode="json")) for state in states]


@pytest.mark.parametrize("seed", [0, 42, 2**32 - 1])
def test_same_seed_and_actions_give_byte_identical_states(seed: int) -> None:
    first = _replay(seed, DRAW)
    assert first == _replay(seed, DRAW)
    assert len(set(first)) == len(DRAW) + 1  # every move changed the state


def test_same_seed_gives_byte_identical_random_games() -> None:
    def run(seed: int) -> list[bytes]:
        engine = GameEngine(definition)
        results = playout(engine, make_game(definition, seed=seed), RandomBot(engine, seed))
        return [orjson.dumps(result.state.model_dump(mode="json")) for result in results]

    assert run(7) == run(7)
    assert run(7) != run(8)
