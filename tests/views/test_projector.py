"""The compiled projector builds exactly the reference view (dump, redact, validate)."""

from __future__ import annotations

import random

import orjson
import pytest
from tabletop import AnyState, GameConfig, GameEngine, dump_json
from tabletop.games import available, load
from tabletop.testing import TEST_PRNG_KEY
from tabletop.views import SPECTATOR, Perspective, project, project_action
from tabletop.views._projection import action_plan, project_action_reference, project_reference, state_plan
from tabletop.views._projector import projector
from tabletop_fixtures.aliasing import mutable_parts
from tabletop_fixtures.models import model_classes
from tabletop_fixtures.seated import seated

AnyEngine = GameEngine[AnyState, GameConfig]


@pytest.mark.parametrize("name", available())
@pytest.mark.parametrize("players", [2, 4])
def test_project_equals_the_reference_projection(name: str, players: int) -> None:
    engine, game = seated(name, seed=players, players=players)
    state = engine.start(game, prng_key=TEST_PRNG_KEY).state
    rng = random.Random(players)
    perspectives: list[Perspective] = [seat.id for seat in game.players]
    perspectives.append(SPECTATOR)
    for step in range(30):
        for perspective in perspectives:
            expected = project_reference(state, perspective)
            got = project(state, perspective)
            assert got == expected
            assert model_classes(got) == model_classes(expected)
            assert dump_json(got) == orjson.dumps(expected.model_dump(mode="json"))
            assert got.model_dump_json() == expected.model_dump_json()
            assert not mutable_parts(got) & mutable_parts(state)  # never aliasing the state
        if state.result is not None:
            break
        legal = next(f for p in state.active_player_ids if (f := engine.legal_actions(state, p, game)))
        state = engine.run(rng.choice(legal).model_copy(update={"id": f"a{step}"}), state, game).state


def test_the_example_games_project_through_compiled_projectors() -> None:
    for name in ("tic-tac-toe", "go-fish"):
        state_type = load(name).state_type
        for spectator in (False, True):
            assert projector(state_plan(state_type, spectator=spectator)) is not None


@pytest.mark.parametrize("name", available())
def test_project_action_equals_the_reference_projection(name: str) -> None:
    engine, game = seated(name, seed=3, players=4 if name in ("go-fish", "hearts", "gallery") else 2)
    result = engine.start(game, prng_key=TEST_PRNG_KEY)
    actions = list(result.actions)
    rng = random.Random(3)
    perspectives: list[Perspective] = [seat.id for seat in game.players]
    perspectives.append(SPECTATOR)
    state = result.state
    for step in range(40):
        if state.result is not None:
            break
        legal = next(f for p in state.active_player_ids if (f := engine.legal_actions(state, p, game)))
        result = engine.run(rng.choice(legal).model_copy(update={"id": f"a{step}"}), state, game)
        state = result.state
        actions += result.actions
    for action in actions:
        for perspective in perspectives:
            expected = project_action_reference(action, perspective)
            got = project_action(action, perspective)
            assert got == expected
            assert type(got) is type(expected)
            assert model_classes(got) == model_classes(expected)
            assert got.model_fields_set == expected.model_fields_set
            assert got.model_dump_json() == expected.model_dump_json()
            assert not mutable_parts(got) & mutable_parts(action)  # never aliasing the action


def test_an_optional_model_that_hides_fields_is_projected_by_a_compiled_projector() -> None:
    from tabletop_go_fish.actions.draw_card import HydratedDrawCard

    plan = action_plan(HydratedDrawCard)
    assert plan is not None
    assert projector(plan) is not None
