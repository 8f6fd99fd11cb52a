"""Hearts end to end: bots play it to the end, the 52 cards stay, the same seed gives the same game."""

import pytest
from tabletop import GameEngine
from tabletop.bots import RandomBot, playout
from tabletop.testing import assert_deterministic, make_game
from tabletop_hearts import definition
from tabletop_hearts.model.config import HeartsConfig


def test_the_definition_is_named_after_the_entry_point() -> None:
    assert definition.name == "hearts"
    assert (definition.min_players, definition.max_players) == (4, 4)
    assert definition.requires_prng_key  # hands are hidden


@pytest.mark.parametrize(
    "options",
    [{}, {"pass_cards": False, "jd_bonus": True}, {"must_break_hearts": False, "can_lead_any_club": True}],
)
def test_random_bots_play_a_game_to_its_end_and_every_state_keeps_the_52_cards(
    options: dict[str, bool],
) -> None:
    engine = GameEngine(definition)
    config = HeartsConfig.model_validate({"target_score": 40, **options})
    game = make_game(definition, players=4, seed=7, config=config)
    results = list(playout(engine, game, RandomBot(engine, 7), max_actions=5_000))
    assert definition.invariants is not None and definition.config_invariants is not None
    for result in results:
        assert list(definition.invariants(result.state)) == []
        assert list(definition.config_invariants(result.state, config)) == []
    final = results[-1].state
    assert final.result is not None and final.active_player_ids == []
    assert max(player.score for player in final.players) >= 40


def test_the_invariants_catch_a_lost_or_doubled_card() -> None:
    engine = GameEngine(definition)
    game = make_game(definition, players=4, seed=3)
    state = engine.start(game, prng_key="0" * 32).state
    assert definition.invariants is not None
    broken = engine.copy_state(state)
    broken.players[0].hand.append(broken.players[1].hand[0])
    problems = list(definition.invariants(broken))
    assert any("several places" in problem for problem in problems)
    broken = engine.copy_state(state)
    broken.players[0].hand.pop()
    assert any("nowhere" in problem for problem in definition.invariants(broken))


@pytest.mark.parametrize("seed", [0, 42, 2**32 - 1])
def test_same_seed_and_actions_give_byte_identical_states(seed: int) -> None:
    # Two playouts from one seed and one PRNG key (a game with hidden information needs one);
    # a failure names the first step that differs, what differs and why.
    assert_deterministic(definition, players=4, seed=seed)
