"""Tabletop games as PettingZoo AEC environments: PettingZoo's own checks and our contract."""

from __future__ import annotations

import importlib
import sys
import warnings
from collections.abc import Iterator

import numpy as np
import orjson
import pytest
from pettingzoo.test import api_test, seed_test
from tabletop import UNKEYED, IllegalActionError, new_prng_key
from tabletop.games import available
from tabletop.pettingzoo import TabletopEnv
from tabletop.views import SPECTATOR, project

TOP_ROW_WIN = [0, 3, 1, 4, 2]  # player_0 marks (0,0), (1,0), (2,0); player_1 marks (0,1), (1,1)
LARGE_VIEWS = {"hearts": 16_384}
"""Games whose views outgrow the default ``observation_bytes`` (Hearts: a deal's tricks, the deals so far)."""


def _env(game: str, prng_key: str | None = None) -> TabletopEnv:
    if game in LARGE_VIEWS:
        return TabletopEnv(game, observation_bytes=LARGE_VIEWS[game], prng_key=prng_key)
    return TabletopEnv(game, prng_key=prng_key)


@pytest.fixture
def pettingzoo_dict_observation_warnings() -> Iterator[None]:
    """Silence PettingZoo's advice against Dict observations, and only that.

    ``api_test`` warns about any Dict observation space unless the environment's name is on its
    hard-coded list of PettingZoo's own action-masked games; the {observation, action_mask}
    Dict is the layout PettingZoo documents for action masking.
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably should be")
        yield


def _play(env: TabletopEnv, actions: list[int]) -> None:
    for action in actions:
        env.step(action)


@pytest.mark.usefixtures("pettingzoo_dict_observation_warnings")
@pytest.mark.parametrize("game", available())
def test_every_game_passes_the_api_test(game: str) -> None:
    api_test(_env(game), num_cycles=30, verbose_progress=False)


@pytest.mark.parametrize("game", available())
def test_every_game_passes_the_seed_test(game: str) -> None:
    key = new_prng_key()  # two environments replay the same games only with the same key
    seed_test(lambda: _env(game, prng_key=key), num_cycles=30)


@pytest.mark.parametrize("game", ["go-fish", "goofspiel"])
def test_a_game_with_secrets_gets_a_fresh_key_per_environment_and_replays_within_it(game: str) -> None:
    env, other = TabletopEnv(game), TabletopEnv(game)
    env.reset(seed=3)
    first = env.tabletop_state
    other.reset(seed=3)
    key = first.prng.key
    assert key is not None and other.tabletop_state.prng.key not in (None, key)
    assert other.tabletop_state.id != first.id  # the same seed, another key: another game
    env.reset(seed=3)
    assert env.tabletop_state == first
    unkeyed = TabletopEnv(game, prng_key=UNKEYED)
    unkeyed.reset(seed=3)
    assert unkeyed.tabletop_state.prng.key is None


def test_reset_seed_is_the_games_prng_seed() -> None:
    env, again = TabletopEnv("sample", players=3), TabletopEnv("sample", players=3)
    env.reset(seed=7)
    again.reset(seed=7)
    assert env.tabletop_state.prng.seed == 7
    assert env.tabletop_state == again.tabletop_state
    assert env.agents == ["player_0", "player_1", "player_2"] == env.possible_agents
    env.reset()
    again.reset()
    assert env.tabletop_state == again.tabletop_state, "unseeded resets follow the last seed"
    assert env.tabletop_state.prng.seed != 7
    env.reset(seed=8)
    assert env.tabletop_state.id != again.tabletop_state.id


def test_rewards_come_at_the_end_and_agents_leave() -> None:
    env = TabletopEnv("tic-tac-toe")
    env.reset(seed=1)
    _play(env, TOP_ROW_WIN[:-1])
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    assert env.agent_selection == "player_0"
    env.step(TOP_ROW_WIN[-1])
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert env.terminations == {"player_0": True, "player_1": True}
    seen = {}
    while env.agents:
        _, reward, terminated, truncated, _ = env.last()
        assert terminated and not truncated
        seen[env.agent_selection] = reward
        env.step(None)
    assert seen == {"player_0": 1.0, "player_1": -1.0}


def test_a_game_past_its_length_bound_is_truncated() -> None:
    env = TabletopEnv("sample", max_game_length=2)
    env.reset(seed=1)
    _play(env, [0, 0])
    assert env.truncations == dict.fromkeys(env.possible_agents, True)
    assert not any(env.terminations.values())
    assert env.rewards == dict.fromkeys(env.possible_agents, 0.0)


def test_the_tensor_hook_gives_the_observation_and_the_mask_the_legal_actions() -> None:
    env = TabletopEnv("tic-tac-toe")
    env.reset(seed=1)
    env.step(4)
    assert env.observation_space("player_0")["observation"].shape == (3, 3, 3)
    mover, waiting = env.observe("player_1"), env.observe("player_0")
    mine, theirs, empty = mover["observation"]
    assert mine.sum() == 0 and theirs[1, 1] == 1 and empty.sum() == 8
    assert waiting["observation"][0][1, 1] == 1
    assert mover["action_mask"].tolist() == [1, 1, 1, 1, 0, 1, 1, 1, 1]
    assert mover["action_mask"].dtype == np.int8
    assert waiting["action_mask"].sum() == 0


def test_the_generic_observation_is_the_players_view_as_json_bytes_padded() -> None:
    env = TabletopEnv("sample", observation_bytes=2048)
    env.reset(seed=3)
    agent = env.agent_selection
    observation = env.observe(agent)["observation"]
    assert observation.shape == (2048,) and observation.dtype == np.uint8
    data = observation.tobytes().rstrip(b"\0")
    assert orjson.loads(data) == project(env.tabletop_state, agent).model_dump(mode="json")
    assert "prng" not in orjson.loads(data)
    tight = TabletopEnv("sample", observation_bytes=64)
    tight.reset(seed=3)
    with pytest.raises(ValueError, match="observation_bytes=64"):
        tight.observe(tight.agent_selection)


def test_an_illegal_action_is_refused() -> None:
    env = TabletopEnv("tic-tac-toe")
    env.reset(seed=1)
    env.step(4)
    with pytest.raises(IllegalActionError, match="illegal-action-index"):
        env.step(4)
    assert env.agent_selection == "player_1"


def test_ansi_rendering_shows_the_spectators_view() -> None:
    env = TabletopEnv("tic-tac-toe", render_mode="ansi")
    env.reset(seed=1)
    env.step(4)
    text = env.render()
    assert text is not None
    shown = orjson.loads(text)
    assert shown == project(env.tabletop_state, SPECTATOR).model_dump(mode="json")
    assert shown["board"]["cells"][1][1] == "player_0"
    assert "prng" not in shown
    quiet = TabletopEnv("tic-tac-toe")
    quiet.reset(seed=1)
    assert quiet.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        TabletopEnv("tic-tac-toe", render_mode="human")


def test_importing_without_the_extra_names_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pettingzoo", None)
    monkeypatch.delitem(sys.modules, "tabletop.pettingzoo")
    with pytest.raises(ImportError, match=r"tabletop-common\[pettingzoo\]"):
        importlib.import_module("tabletop.pettingzoo")
