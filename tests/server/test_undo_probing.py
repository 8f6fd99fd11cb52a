"""Ask and undo: no action the server lets a seat undo shows anyone what their own view could not predict.

The probe a cheater runs: play an action, look at the result, undo, play another (go-fish's Ask
that takes cards shows the other hand; repeated, it maps the hand). The server refuses undo
across a barrier (``tabletop_server._undo.undo_barrier``). This test checks the other side of it
for every installed game, without trusting the games' ``reveals_info``: for each action that is
*not* a barrier, every seat's view after it is the same in every world that seat's view allows
(sampled by the game's determinizer, with a fresh PRNG key), so undoing it taught nobody anything.
"""

from __future__ import annotations

import random

import pytest
from tabletop import AnyState, Game, GameConfig, GameEngine, IllegalActionError, PrngState, new_prng_key
from tabletop.games import available, load
from tabletop.testing import GameHarness
from tabletop.views import HiddenValues, project
from tabletop_server._registry import GameEntry, GameRegistry
from tabletop_server._runtime import load_state
from tabletop_server._undo import undo_barrier

STEPS = 40
"""Actions played per game and seed."""

WORLDS = 4
"""Worlds sampled per seat and undoable action."""


def _world(entry: GameEntry, state: AnyState, seat: str, rng: random.Random) -> AnyState:
    """A state ``seat``'s view allows (the truth itself in a game without hidden information), re-keyed."""
    determinizer = entry.definition.determinizer
    if entry.hidden_information and determinizer is not None:
        world = entry.definition.state_type.model_validate(determinizer(project(state, seat), seat, rng))
    else:
        world = entry.engine.copy_state(state)
    world.prng = PrngState(seed=world.prng.seed, invocations=world.prng.invocations, key=new_prng_key())
    return world


def _view(state: AnyState, seat: str) -> object:
    return project(state, seat).model_dump(mode="json")


@pytest.mark.parametrize("seed", [3, 8])
@pytest.mark.parametrize("name", available())
def test_an_undoable_action_shows_no_seat_anything_its_view_could_not_predict(name: str, seed: int) -> None:
    entry = GameRegistry({name: load(name)}).get(name)
    definition = entry.definition
    harness = GameHarness.for_game(name, players=max(2, definition.min_players), seed=seed)
    engine: GameEngine[AnyState, GameConfig] = harness.engine
    game: Game[GameConfig] = harness.game
    seats = [player.player_id for player in harness.state.players]
    rng = random.Random(f"{name}-{seed}")
    state = harness.state
    undoable = barriers = 0
    for step in range(STEPS):
        movers = [seat for seat in state.active_player_ids if engine.legal_actions(state, seat, game)]
        if state.is_over or not movers:
            break
        player = rng.choice(movers)
        action = rng.choice(engine.legal_actions(state, player, game)).model_copy(update={"id": f"a{step}"})
        result = engine.run(action, state, game)
        after = result.state
        # The server passes the stored row's JSON as the state's dump: a stored state reads back
        # to one that dumps the same, so the two are the same.
        before_json, after_json = state.model_dump_json(), after.model_dump_json()
        assert load_state(entry, after_json).model_dump_json() == after_json
        barrier = undo_barrier(
            entry, HiddenValues(state, before_json), HiddenValues(after, after_json), result.actions
        )
        assert barrier == undo_barrier(entry, HiddenValues(state), HiddenValues(after), result.actions)
        if barrier:
            barriers += 1
            if name == "go-fish":
                assert action.type == "Ask"
        else:
            undoable += 1
            assert name != "go-fish", "a go-fish Ask shows the asker cards: it may never be undone"
            for seat in seats:
                expected = _view(after, seat)
                for _ in range(WORLDS):
                    try:
                        probed = engine.run(action, _world(entry, state, seat, rng), game).state
                    except IllegalActionError:  # the action could not have been played in this world
                        continue  # (Gallery: a price above re-sampled money): the seat knows it was not so
                    assert _view(probed, seat) == expected, (step, action.type, seat)
        state = after
    assert undoable + barriers > 0
    if name in ("tic-tac-toe", "sample"):
        assert barriers == 0  # nothing hidden, nothing drawn: every move may be taken back
