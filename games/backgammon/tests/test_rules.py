"""The move rules' fast paths agree with the plain ones on every position of random games."""

import pytest
from tabletop import GameEngine
from tabletop.bots import RandomBot, playout
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop_backgammon import definition
from tabletop_backgammon.components import rules


@pytest.mark.parametrize("seed", [3, 4])
def test_the_early_exit_check_agrees_with_listing_the_steps(seed: int) -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=2, seed=seed)
    compared = 0
    for result in playout(engine, game, RandomBot(engine, seed), max_actions=5_000, prng_key=TEST_PRNG_KEY):
        state = result.state
        for player in state.players:
            mine, theirs = state.view(player.player_id)
            for die in range(1, 7):
                assert rules._can_step(mine, theirs, die) == bool(rules.checker_steps(mine, theirs, [die]))
                compared += 1
    assert compared > 1_000


def test_legal_steps_are_memoized_by_position() -> None:
    mine, theirs = (0,) * 23 + (2, 0), (0,) * 25
    first = rules.legal_steps(mine, theirs, (3, 4))
    assert rules.legal_steps(mine, theirs, (3, 4)) is first
    assert set(first) == {(23, 3), (23, 4)} and rules.legal_steps(mine, theirs, ()) == ()
