"""GameOver and the winner query: three in a line wins, a full board without one is a draw."""

import random
from collections.abc import Callable

import pytest
from tabletop import GameResult
from tabletop.testing import GameHarness
from tabletop_tic_tac_toe.model.config import TicTacToeConfig
from tabletop_tic_tac_toe.model.game_state import HydratedTicTacToeGameState, TicTacToeGameState
from tabletop_tic_tac_toe.state_handlers.game_over import GameOver

Harness = GameHarness[HydratedTicTacToeGameState, TicTacToeConfig]
Draw = Callable[[TicTacToeGameState, str], None]

# The eight lines of tic-tac-toe, written out as (x, y) squares: an oracle independent of the board.
LINES = [[(x, y) for x in range(3)] for y in range(3)]
LINES += [[(x, y) for y in range(3)] for x in range(3)]
LINES += [[(0, 0), (1, 1), (2, 2)], [(2, 0), (1, 1), (0, 2)]]


@pytest.mark.parametrize(
    ("picture", "result", "winners"),
    [
        ("XXX OO. ...", GameResult.WIN, ["p1"]),
        ("XOX .OX .O.", GameResult.WIN, ["p2"]),
        ("X.O .XO ..X", GameResult.WIN, ["p1"]),
        ("XXO XO. O..", GameResult.WIN, ["p2"]),
        ("XOX XOO OXX", GameResult.DRAW, []),
    ],
)
def test_enter_settles_the_result(
    harness: Harness, draw: Draw, picture: str, result: GameResult, winners: list[str]
) -> None:
    ctx = harness.context()
    draw(ctx.state, picture)
    GameOver().enter(ctx)
    assert ctx.state.result is result
    assert ctx.state.winning_player_ids == winners
    assert ctx.state.active_player_ids == []
    assert ctx.turns.current_turn is None


@pytest.mark.parametrize("line", LINES)
@pytest.mark.parametrize("player", ["p1", "p2"])
def test_each_of_the_eight_lines_wins(harness: Harness, line: list[tuple[int, int]], player: str) -> None:
    state = harness.engine.copy_state(harness.state)
    for x, y in line:
        state.board.set(x, y, player)
    assert state.winner() == player


def test_the_winner_matches_the_oracle_on_random_boards(harness: Harness) -> None:
    rng = random.Random(2024)
    state = harness.engine.copy_state(harness.state)
    for _ in range(300):
        for x in range(3):
            for y in range(3):
                state.board.set(x, y, rng.choice(["p1", "p2", None]))
        full_lines = [line for line in LINES if len({state.board.get(x, y) for x, y in line}) == 1]
        owners = {state.board.get(*line[0]) for line in full_lines} - {None}
        winner = state.winner()
        assert (winner is None) if not owners else (winner in owners)


def test_nothing_is_valid_once_the_game_is_over(harness: Harness) -> None:
    assert GameOver().valid_actions_for_player("p1", harness.context()) == []
