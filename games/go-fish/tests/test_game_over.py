"""GameOver: most books wins; a tie for the most is a draw; nobody is active any more."""

import pytest
from tabletop import GameResult
from tabletop.components import Rank
from tabletop.testing import GameHarness
from tabletop_go_fish import definition
from tabletop_go_fish.model.player_state import Book
from tabletop_go_fish.state_handlers.game_over import GameOver


@pytest.mark.parametrize(
    ("books", "result", "winners"),
    [
        ((7, 6), GameResult.WIN, ["p1"]),
        ((4, 9), GameResult.WIN, ["p2"]),
        ((3, 5, 5), GameResult.DRAW, []),
        ((5, 4, 4), GameResult.WIN, ["p1"]),
        ((2, 3, 4, 4), GameResult.DRAW, []),
    ],
)
def test_enter_settles_the_result_by_books(
    books: tuple[int, ...], result: GameResult, winners: list[str]
) -> None:
    harness = GameHarness(definition, players=len(books))
    ctx = harness.context()
    for player, count in zip(ctx.state.players, books, strict=True):
        player.books = [Book(rank=rank, turn=1) for rank in list(Rank)[:count]]
    GameOver().enter(ctx)
    assert (ctx.state.result, ctx.state.winning_player_ids) == (result, winners)
    assert ctx.state.active_player_ids == []
    assert ctx.turns.current_turn is None


def test_nothing_is_valid_once_the_game_is_over() -> None:
    harness = GameHarness(definition, players=2)
    assert GameOver().valid_actions_for_player("p1", harness.context()) == []
