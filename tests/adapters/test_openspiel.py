"""Tabletop games as OpenSpiel games: OpenSpiel's own checks, its MCTS bot, and our contract."""

from __future__ import annotations

import importlib
import sys

import numpy as np
import orjson
import pyspiel
import pytest
from open_spiel.python.algorithms.mcts import MCTSBot, RandomRolloutEvaluator
from tabletop import IllegalActionError
from tabletop.games import available, load
from tabletop.openspiel import TabletopGame, TabletopState, load_game, register_all, short_name
from tabletop.views import project, project_action
from tabletop_fixtures.short_games import SHORT_PARAMS

TOP_ROW_WIN = [0, 3, 1, 4, 2]  # player_0 marks (0,0), (1,0), (2,0); player_1 marks (0,1), (1,1)


def _play(game: TabletopGame, actions: list[int]) -> TabletopState:
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(action)
    assert isinstance(state, TabletopState)
    return state


def test_every_installed_game_registers_under_a_short_name() -> None:
    names = register_all()
    assert names == [short_name(game) for game in available()]
    assert set(names) <= set(pyspiel.registered_names())
    loaded = pyspiel.load_game("tabletop_tic_tac_toe")
    assert isinstance(loaded, TabletopGame)
    assert (loaded.num_players(), loaded.num_distinct_actions(), loaded.max_game_length()) == (2, 9, 9)
    assert loaded.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert loaded.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION


@pytest.mark.parametrize("game", [game for game in available() if not load(game).chance_actions])
def test_random_simulations_pass_openspiel_checks(game: str) -> None:
    """Games with declared chance points pass the same checks through their chance nodes
    (test_openspiel_chance.py)."""
    pyspiel.random_sim_test(
        load_game(game, **SHORT_PARAMS.get(game, {})), num_sims=2, serialize=True, verbose=False
    )


def test_random_simulations_pass_with_more_players_and_another_seed() -> None:
    game = load_game("sample", players=3, seed=7, big_totals_allowed=True)
    assert game.num_players() == 3
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_parameters_reach_the_game() -> None:
    state = load_game("sample", players=3, seed=7, big_totals_allowed=True).new_initial_state()
    assert isinstance(state, TabletopState)
    tabletop_state = state.tabletop_state
    assert [p.player_id for p in tabletop_state.players] == ["player_0", "player_1", "player_2"]
    assert tabletop_state.prng.seed == 7
    assert tabletop_state.max_total == 100  # type: ignore[attr-defined]
    other_seed = load_game("sample", players=3, seed=8).new_initial_state()
    assert other_seed.tabletop_state.id != tabletop_state.id
    with pytest.raises(ValueError, match=r"takes 2\.\.2 players"):
        load_game("tic-tac-toe", players=3)


def test_a_won_game_returns_one_and_minus_one() -> None:
    game = load_game("tic-tac-toe")
    state = _play(game, TOP_ROW_WIN)
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0]
    assert state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    assert state.tabletop_state.winning_player_ids == ["player_0"]


def test_players_alternate_and_actions_are_labelled() -> None:
    state = load_game("tic-tac-toe").new_initial_state()
    assert state.current_player() == 0
    assert state.action_to_string(0, 4) == 'player_0: PlaceMark {"square":{"x":1,"y":1}}'
    state.apply_action(4)
    assert state.current_player() == 1
    assert 4 not in state.legal_actions()
    assert state.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="square-taken"):
        state.apply_action(4)


def test_a_game_cut_off_at_its_length_bound_is_a_draw() -> None:
    state = _play(load_game("sample", max_game_length=2), [0, 0])
    assert state.is_terminal()
    assert state.tabletop_state.result is None
    assert state.returns() == [0.0, 0.0]


def test_observations_and_information_states_follow_the_history() -> None:
    game = load_game("tic-tac-toe")
    state = _play(game, [4])
    observation = state.observation_string(1)
    assert orjson.loads(observation) == project(state.tabletop_state, "player_1").model_dump(mode="json")
    assert '"action_count":1' in observation and '"prng"' not in observation
    (mark,) = state.action_log
    assert (mark.type, mark.player_id, mark.index) == ("PlaceMark", "player_0", 0)
    information = state.information_state_string(1).splitlines()
    assert information[0] == "player_1"
    start_log, start, move_log, now = information[1:]
    assert (orjson.loads(start_log), start) == ([], game.new_initial_state().observation_string(1))
    assert orjson.loads(move_log) == [project_action(mark, "player_1").model_dump(mode="json")]
    assert now == observation
    assert state.information_state_string(0) != state.information_state_string(1)
    mine, theirs, empty = np.reshape(state.observation_tensor(0), (3, 3, 3))
    assert mine[1, 1] == 1 and theirs.sum() == 0 and empty.sum() == 8
    mine, theirs, _ = np.reshape(state.observation_tensor(1), (3, 3, 3))
    assert mine.sum() == 0 and theirs[1, 1] == 1


def test_states_serialize_through_json_and_clone_independently() -> None:
    game = load_game("tic-tac-toe", seed=3)
    state = _play(game, [4, 0])
    game_copy, state_copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert str(game_copy) == str(game)
    assert isinstance(state_copy, TabletopState)
    assert state_copy.tabletop_state == state.tabletop_state
    assert state_copy.history() == [4, 0]
    assert state_copy.action_log == state.action_log
    for player in (0, 1):
        assert state_copy.information_state_string(player) == state.information_state_string(player)
    clone = state.clone()
    clone.apply_action(8)
    assert state.legal_actions() == [1, 2, 3, 5, 6, 7, 8]
    assert 8 not in clone.legal_actions()


def test_openspiel_mcts_beats_a_uniform_random_player() -> None:
    game = load_game("tic-tac-toe")
    rng = np.random.RandomState(2024)
    scores = []
    for match in range(4):
        bot = MCTSBot(game, 2.0, 20, RandomRolloutEvaluator(1, rng), random_state=rng)
        seat = match % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            action = bot.step(state) if state.current_player() == seat else rng.choice(state.legal_actions())
            state.apply_action(action)
        scores.append(state.returns()[seat])
    assert -1.0 not in scores
    assert scores.count(1.0) >= 3


def test_importing_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    monkeypatch.delitem(sys.modules, "tabletop.openspiel")
    with pytest.raises(ImportError, match=r"tabletop-common\[openspiel\]"):
        importlib.import_module("tabletop.openspiel")


@pytest.mark.parametrize("name", ["go-fish", "goofspiel"])
def test_a_game_with_secrets_is_keyed_per_game_object_unless_unkeyed(name: str) -> None:
    key = "00112233445566778899aabbccddeeff"
    fresh, other = load_game(name, seed=4), load_game(name, seed=4)
    first = fresh.new_initial_state().tabletop_state
    assert first.prng.key is not None and first == fresh.new_initial_state().tabletop_state
    assert other.new_initial_state().tabletop_state.prng.key not in (None, first.prng.key)
    keyed = [load_game(name, seed=4, prng_key=key).new_initial_state().tabletop_state for _ in range(2)]
    assert keyed[0] == keyed[1] and keyed[0].prng.key == key
    unkeyed = load_game(name, seed=4, prng_key="unkeyed").new_initial_state().tabletop_state
    assert unkeyed.prng.key is None


def test_a_game_without_secrets_stays_unkeyed() -> None:
    assert load_game("tic-tac-toe", seed=4).new_initial_state().tabletop_state.prng.key is None
