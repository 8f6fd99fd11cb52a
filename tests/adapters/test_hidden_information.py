"""What the adapters show each player of a hidden-information game: their projected views, nothing more.

The leak checks run only for games whose state declares hidden information
(``tabletop.views.declares_visibility``); a game that does not yet is skipped at collection
with the reason, since its views would hide nothing but the PRNG.
"""

from __future__ import annotations

import numpy as np
import orjson
import pytest
from _pytest.mark import ParameterSet
from tabletop import UNKEYED
from tabletop.components import Rank, standard_deck
from tabletop.games import load
from tabletop.openspiel import TabletopState, load_game
from tabletop.pettingzoo import DEFAULT_OBSERVATION_BYTES, TabletopEnv
from tabletop.views import SPECTATOR, Perspective, declares_visibility, find_leaks, project, project_action
from tabletop_go_fish.model.game_state import GoFishGameState
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import GoofspielGameState

HIDDEN_INFORMATION_GAMES = ("go-fish", "goofspiel")


def _if_it_hides(game: str, *values: object, slow: bool = False) -> ParameterSet:
    hides = declares_visibility(load(game).state_type)
    reason = (
        f"{game} declares no hidden information yet (tabletop.views.declares_visibility is False): "
        "its views hide only the PRNG, so there is nothing to check for leaks"
    )
    marks = [pytest.mark.skipif(not hides, reason=reason), *([pytest.mark.slow] if slow else [])]
    return pytest.param(game, *values, marks=marks)


OPENSPIEL_PLAYTHROUGHS = [  # game, players, seed
    _if_it_hides("go-fish", 2, 1),
    _if_it_hides("go-fish", 3, 2),
    _if_it_hides("goofspiel", 2, 1),
]
PETTINGZOO_PLAYTHROUGHS = [
    _if_it_hides("go-fish", 3, 4),
    _if_it_hides("go-fish", 6, 5, slow=True),
    _if_it_hides("goofspiel", 2, 2),
]


def _check_step(
    state: TabletopState, player: int, known: list[str], logged: int, *, compare: bool
) -> list[str]:
    """Check seat ``player``'s observation and information state now; return the information state.

    The information state must be the one ``known`` before plus two lines: the actions recorded
    since (``logged`` were before) as the player receives them, then the observation. Each line
    is checked for leaks against what it was made from: ``find_leaks`` compares a view with one
    state or action, so the lines are checked one by one, not as one text. With ``compare``, the
    lines must also be exactly the projections (slower, so not at every step).
    """
    tabletop_state = state.tabletop_state
    player_id = tabletop_state.players[player].player_id
    observation = state.observation_string(player)
    assert find_leaks(tabletop_state, observation, player_id) == []
    information: list[str] = state.information_state_string(player).split("\n")
    assert information[: len(known)] == known, "an information state only grows (perfect recall)"
    log_line, observation_line = information[len(known) :]
    assert observation_line == observation
    received = orjson.loads(log_line)
    recorded = state.action_log[logged:]
    assert len(received) == len(recorded)
    for action, seen in zip(recorded, received, strict=True):
        assert find_leaks(action, orjson.dumps(seen), player_id) == []
    if compare:
        assert orjson.loads(observation) == project(tabletop_state, player_id).model_dump(mode="json")
        assert received == [project_action(action, player_id).model_dump(mode="json") for action in recorded]
    return information


@pytest.mark.parametrize(("game", "players", "seed"), OPENSPIEL_PLAYTHROUGHS)
def test_openspiel_observations_and_information_states_leak_nothing(
    game: str, players: int, seed: int
) -> None:
    state = load_game(game, players=players, seed=seed).new_initial_state()
    assert isinstance(state, TabletopState)
    rng = np.random.RandomState(seed)
    known = [[state.tabletop_state.players[player].player_id] for player in range(players)]
    logged = 0
    while True:
        over = state.is_terminal()
        compare = over or len(state.history()) % 10 == 0
        known = [
            _check_step(state, player, known[player], logged, compare=compare) for player in range(players)
        ]
        logged = len(state.action_log)
        if over:
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert len(known[0]) == 1 + 2 * (len(state.history()) + 1)
    assert state.tabletop_state.result is not None, "the playthrough reached the end of the game"


@pytest.mark.parametrize(("game", "players", "seed"), PETTINGZOO_PLAYTHROUGHS)
def test_pettingzoo_observations_and_rendering_leak_nothing(game: str, players: int, seed: int) -> None:
    env = TabletopEnv(game, players=players, render_mode="ansi")
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for step, agent in enumerate(env.agent_iter()):
        state = env.tabletop_state
        compare = step % 10 == 0  # exactly the projections (slower, so not at every step)
        for other in env.agents:
            padded = env.observe(other)["observation"]
            assert padded.shape == (DEFAULT_OBSERVATION_BYTES,)
            data = padded.tobytes().rstrip(b"\0")
            assert find_leaks(state, data, other) == []
            assert not compare or orjson.loads(data) == project(state, other).model_dump(mode="json")
        text = env.render()
        assert text is not None
        assert find_leaks(state, text, SPECTATOR) == []
        assert not compare or orjson.loads(text) == project(state, SPECTATOR).model_dump(mode="json")
        _, _, terminated, truncated, _ = env.last()
        mask = env.observe(agent)["action_mask"]
        env.step(None if terminated or truncated else int(rng.choice(mask.nonzero()[0])))
    assert env.tabletop_state.result is not None


@pytest.mark.parametrize("game", [_if_it_hides("goofspiel")])
def test_a_sealed_bid_leaves_the_other_bidders_information_state_unchanged(game: str) -> None:
    """Whatever card the first bidder seals, the other player's strings are the same until the reveal."""
    state = load_game(game, seed=5).new_initial_state()
    rng = np.random.RandomState(5)
    rounds = 0
    while not state.is_terminal():
        if state.is_chance_node():  # the round's prize comes up (RevealPrize): public to both
            outcomes = [outcome for outcome, _ in state.chance_outcomes()]
            state.apply_action(outcomes[rng.randint(len(outcomes))])
            continue
        bidder = state.current_player()
        other = 1 - bidder
        after = [state.child(card) for card in state.legal_actions()]
        assert len({child.information_state_string(other) for child in after}) == 1
        assert len({child.observation_string(other) for child in after}) == 1
        assert len({child.information_state_string(bidder) for child in after}) == len(after)
        state = after[rng.randint(len(after))]
        state.apply_action(rng.choice(state.legal_actions()))  # the other bid, then the reveal
        rounds += 1
    final = state.tabletop_state
    assert isinstance(final, GoofspielGameState)
    assert rounds == len(final.rounds) == GoofspielConfig().cards


def test_six_player_go_fish_views_fit_the_default_observation_size() -> None:
    """The biggest Go Fish view: six players, one holding all 52 cards (books are shorter), and
    the table knowing every rank of every hand (held by the one, lacked by the others)."""
    definition = load("go-fish")
    env = TabletopEnv("go-fish", players=6, prng_key=UNKEYED)  # the same deal every run: no book in it
    env.reset(seed=1)
    state = definition.state_type.model_validate_json(env.tabletop_state.model_dump_json())
    assert isinstance(state, GoFishGameState)
    cards = [card for player in state.players for card in player.hand] + state.deck
    assert len(cards) == 52 and set(cards) == set(standard_deck())
    for player in state.players:
        player.hand, player.holds, player.lacks = [], [], list(Rank)
    state.players[0].hand, state.players[0].holds, state.players[0].lacks = cards, list(Rank), []
    state.deck = []
    perspectives: list[Perspective] = [*(player.player_id for player in state.players), SPECTATOR]
    for perspective in perspectives:
        size = len(project(state, perspective).model_dump_json())
        assert size <= DEFAULT_OBSERVATION_BYTES, f"{perspective}'s view takes {size} bytes"
