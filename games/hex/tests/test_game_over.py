"""GameOver: the owner of the winning chain wins; nobody is active any more."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from tabletop import GameResult
from tabletop.boards import Hex
from tabletop.testing import GameHarness
from tabletop_hex.model.config import HexConfig
from tabletop_hex.model.game_state import HexGameState, HydratedHexGameState
from tabletop_hex.state_handlers.game_over import GameOver

Harness = GameHarness[HydratedHexGameState, HexConfig]
Draw = Callable[[HexGameState, str], None]
MakeHarness = Callable[[int, int], Harness]


@pytest.mark.parametrize(
    ("picture", "chain", "winner"),
    [(".X. .X. .X.", [(1, 0), (1, 1), (1, 2)], "p1"), ("... OOO ...", [(0, 1), (1, 1), (2, 1)], "p2")],
)
def test_enter_makes_the_chains_owner_the_winner(
    small: MakeHarness, draw: Draw, picture: str, chain: list[tuple[int, int]], winner: str
) -> None:
    harness = small(3, 3)
    ctx = harness.context()
    draw(ctx.state, picture)
    ctx.state.winning_chain = [Hex(q=q, r=r) for q, r in chain]
    GameOver().enter(ctx)
    assert ctx.state.result is GameResult.WIN
    assert ctx.state.winning_player_ids == [winner]
    assert ctx.state.active_player_ids == []
    assert ctx.turns.current_turn is None


def test_nothing_is_valid_once_the_game_is_over(harness: Harness) -> None:
    assert GameOver().valid_actions_for_player("p1", harness.context()) == []
