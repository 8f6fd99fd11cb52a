"""The sample game end to end: setup, a full game, determinism, config."""

import orjson
import pytest
from tabletop import GameEngine, GameResult
from tabletop.bots import RandomBot, playout
from tabletop.testing import GameHarness, make_game
from tabletop_sample import definition
from tabletop_sample.actions.add_amount import HydratedAddAmount
from tabletop_sample.components.colors import BIG_MAX_TOTAL, COLORS, DEFAULT_MAX_TOTAL
from tabletop_sample.definition.states import MachineState
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import HydratedSampleGameState

SampleHarness = GameHarness[HydratedSampleGameState, SampleConfig]


def test_setup_deals_distinct_colours_and_shuffles_the_turn_order() -> None:
    orders = set()
    for seed in range(20):
        state = GameHarness(definition, players=4, seed=seed).state
        colors = [p.color for p in state.players]
        assert len(set(colors)) == 4
        assert set(colors) <= set(COLORS)
        assert sorted(state.turn_manager.turn_order) == ["p1", "p2", "p3", "p4"]
        orders.add(tuple(state.turn_manager.turn_order))
    assert len(orders) > 1


@pytest.mark.parametrize(("big", "maximum"), [(False, DEFAULT_MAX_TOTAL), (True, BIG_MAX_TOTAL)])
def test_config_sets_the_maximum_total(big: bool, maximum: int) -> None:
    harness = GameHarness(definition, config=SampleConfig(big_totals_allowed=big))
    assert harness.state.max_total == maximum


def test_a_full_game_through_the_engine(harness: SampleHarness) -> None:
    while harness.state.machine_state is MachineState.START_OF_TURN:
        player = harness.state.active_player_ids[0]
        harness.play(harness.action(HydratedAddAmount, player, amount=5))
    state = harness.state
    assert state.total == DEFAULT_MAX_TOTAL
    assert state.result is GameResult.WIN
    assert state.winning_player_ids == [state.turn_manager.turn_order[0]]
    assert state.action_count == 5
    assert [a.index for a in harness.log] == [0, 1, 2, 3, 4]


def _playout_bytes(seed: int) -> list[bytes]:
    engine = GameEngine(definition)
    game = make_game(definition, players=3, seed=seed)
    return [
        orjson.dumps(r.state.model_dump(mode="json")) for r in playout(engine, game, RandomBot(engine, seed))
    ]


@pytest.mark.parametrize("seed", [0, 42, 2**32 - 1])
def test_same_seed_and_actions_give_byte_identical_states(seed: int) -> None:
    assert _playout_bytes(seed) == _playout_bytes(seed)


def test_different_seeds_give_different_games() -> None:
    assert _playout_bytes(1) != _playout_bytes(2)
