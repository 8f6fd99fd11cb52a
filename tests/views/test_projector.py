"""The compiled projector builds exactly the reference view (dump, redact, validate)."""

from __future__ import annotations

import random

import orjson
import pytest
from tabletop import AnyState, GameConfig, GameEngine, dump_json
from tabletop.games import available, load
from tabletop.testing import TEST_PRNG_KEY
from tabletop.views import SPECTATOR, Perspective, project
from tabletop.views._projection import project_reference, state_plan
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
