"""Declared chance points as OpenSpiel chance nodes: EXPLICIT_STOCHASTIC, outcomes, clones, MCTS."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator
from tabletop import IllegalActionError
from tabletop.games import available, load
from tabletop.openspiel import TabletopState, load_game
from tabletop_fixtures.short_games import SEARCH_PARAMS, SHORT_PARAMS
from tabletop_pig.model.game_state import HydratedPigGameState

CHANCE_GAMES = [game for game in available() if load(game).chance_actions]
ROLL, HOLD = 0, 1


def _pig(state: pyspiel.State) -> HydratedPigGameState:
    assert isinstance(state, TabletopState)
    pig = state.tabletop_state
    assert isinstance(pig, HydratedPigGameState)
    return pig


def _rolled(**params: int) -> TabletopState:
    state = load_game("pig", **params).new_initial_state()
    assert isinstance(state, TabletopState)
    state.apply_action(ROLL)
    return state


def test_games_with_chance_points_are_explicitly_stochastic_and_the_others_deterministic() -> None:
    assert "pig" in CHANCE_GAMES
    for game in available():
        loaded = load_game(game)
        mode = loaded.get_type().chance_mode
        if game in CHANCE_GAMES:
            assert (
                mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC and loaded.max_chance_outcomes() > 0
            )
        else:
            assert mode == pyspiel.GameType.ChanceMode.DETERMINISTIC and loaded.max_chance_outcomes() == 0


@pytest.mark.parametrize("sides", [2, 6, 20])
def test_max_chance_outcomes_is_the_chance_space(sides: int) -> None:
    assert load_game("pig", dice_outcomes=sides).max_chance_outcomes() == sides


def test_a_roll_leads_to_a_chance_node_whose_outcome_is_applied() -> None:
    state = _rolled()
    assert state.is_chance_node() and state.current_player() == pyspiel.PlayerId.CHANCE
    assert [(face, round(p * 6, 9)) for face, p in state.chance_outcomes()] == [
        (face, 1.0) for face in range(6)
    ]
    assert state.legal_actions() == list(range(6))
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 4) == "chance: RollDie 5"
    assert _pig(state).turn_total == 0  # nothing decided yet
    state.apply_action(4)  # the outcome numbered 4: the face 5
    assert not state.is_chance_node() and state.current_player() == 0
    assert (_pig(state).die.face, _pig(state).turn_total) == (5, 5)
    assert [a.type for a in state.action_log][-2:] == ["Roll", "RollDie"]
    state.apply_action(ROLL)
    state.apply_action(0)  # a 1: the turn passes
    assert (state.current_player(), _pig(state).turn_total) == (1, 0)


def test_the_outcome_is_never_read_from_the_prng() -> None:
    faces = set()
    for face in range(6):
        state = _rolled()
        state.apply_action(face)
        faces.add(_pig(state).die.face)
    assert faces == {1, 2, 3, 4, 5, 6}  # the same state, every outcome: whatever the PRNG holds


def test_a_clone_at_a_chance_node_is_independent_and_serializes() -> None:
    state = _rolled()
    clone = state.clone()
    clone.apply_action(5)
    assert state.is_chance_node() and not clone.is_chance_node()
    assert _pig(clone).turn_total == 6 and _pig(state).turn_total == 0
    copied = pickle.loads(pickle.dumps(state))
    assert copied.is_chance_node() and copied.chance_outcomes() == state.chance_outcomes()
    copied.apply_action(2)
    assert _pig(copied).turn_total == 3
    restored = state.get_game().deserialize_state(state.serialize())
    assert restored.is_chance_node()


def test_an_outcome_of_another_chance_space_is_refused() -> None:
    state = _rolled(dice_outcomes=4)
    with pytest.raises((IllegalActionError, IndexError, RuntimeError)):
        state.apply_action(7)
    assert state.is_chance_node()


@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_random_simulations_pass_openspiel_checks_through_chance_nodes(game: str) -> None:
    pyspiel.random_sim_test(
        load_game(game, **SHORT_PARAMS.get(game, {})), num_sims=3, serialize=True, verbose=False
    )


@pytest.mark.slow
@pytest.mark.parametrize("game", CHANCE_GAMES)
def test_openspiel_mcts_plays_every_chance_game_to_the_end(game: str) -> None:
    loaded = load_game(game, **SEARCH_PARAMS.get(game, {}))
    rng = np.random.RandomState(7)
    bot = MCTSBot(loaded, 2.0, 20, RandomRolloutEvaluator(1, rng), random_state=rng)
    state = loaded.new_initial_state()
    chance_nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
            chance_nodes += 1
        else:
            state.apply_action(bot.step(state))
    assert chance_nodes > 0 and len(state.returns()) == loaded.num_players()
    if loaded.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM:
        assert sum(state.returns()) == pytest.approx(0.0)
