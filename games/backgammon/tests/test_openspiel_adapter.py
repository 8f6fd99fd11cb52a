"""Backgammon through the OpenSpiel adapter: explicit chance nodes with OpenSpiel's outcome ids."""

import pyspiel
from tabletop.openspiel import load_game


def test_the_adapter_exposes_the_dice_as_openspiels_chance_nodes() -> None:
    ours = load_game("backgammon")
    theirs = pyspiel.load_game("backgammon")
    assert ours.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert ours.max_chance_outcomes() == theirs.max_chance_outcomes() == 36
    state, reference = ours.new_initial_state(), theirs.new_initial_state()
    assert state.is_chance_node() and reference.is_chance_node()
    assert state.chance_outcomes() == reference.chance_outcomes()  # the opening: 30 ids, 1/30 each
    state.apply_action(7)  # outcome 7: (5, 1), Black starts
    reference.apply_action(7)
    assert state.current_player() == reference.current_player() == 1


def test_random_simulations_pass_openspiels_checks() -> None:
    pyspiel.random_sim_test(load_game("backgammon"), num_sims=3, serialize=True, verbose=False)
