"""Every installed game's determinizer keeps the protocol's promise (``tabletop.bots.Determinizer``).

For positions of seeded random playouts, for every seat and a spectator: the sampled world is a
valid state of the game's hydrated type, projecting it for the perspective gives the view back
exactly, the view is left unchanged, the world shares no mutable part with the view (so changing
the world never changes the view), and its randomness comes from the generator passed in only
(the same generator seed gives the same bytes, whatever the module-level ``random`` holds).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tabletop import AnyState, GameConfig, GameDefinition, GameEngine, Hydrated
from tabletop.bots import RandomBot, playout
from tabletop.games import available, load
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop.views import SPECTATOR, Perspective, declares_visibility, project
from tabletop_fixtures.aliasing import mutable_parts

AnyDefinition = GameDefinition[AnyState, GameConfig]

HIDDEN_GAMES = [name for name in available() if declares_visibility(load(name).state_type)]
POSITIONS = 30
"""Positions checked per game, seed and player count (spread over the playout)."""


def _positions(definition: AnyDefinition, players: int, seed: int) -> Iterator[AnyState]:
    engine = GameEngine(definition)
    game = make_game(definition, players=players, seed=seed)
    states = [
        result.state
        for result in playout(
            engine, game, RandomBot(engine, seed), max_actions=2_000, prng_key=TEST_PRNG_KEY
        )
        if result.state.result is None
    ]
    yield from states[:: max(1, len(states) // POSITIONS)]


def _player_counts(definition: AnyDefinition) -> list[int]:
    return sorted({definition.min_players, min(definition.max_players, 4)})


def test_every_game_that_hides_information_declares_a_determinizer() -> None:
    assert {"go-fish", "goofspiel", "gallery", "hearts"} <= set(HIDDEN_GAMES)
    for name in HIDDEN_GAMES:
        assert load(name).determinizer is not None, name


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", HIDDEN_GAMES)
def test_a_world_projects_back_to_the_view_and_shares_nothing_with_it(name: str, seed: int) -> None:
    definition = load(name)
    determinize = definition.determinizer
    assert determinize is not None
    checked = 0
    counts = _player_counts(definition)
    for players in counts:
        positions = list(_positions(definition, players, seed))
        assert positions, f"{name}: no unfinished position with {players} players"
        for state in positions:
            perspectives: list[Perspective] = [player.player_id for player in state.players]
            for perspective in [*perspectives, SPECTATOR]:
                seat = None if perspective is SPECTATOR else str(perspective)
                view = project(state, perspective)
                before = view.model_dump_json()
                random.seed(checked)  # the module's generator: a determinizer must not read it
                world = determinize(view, seat, random.Random(checked))
                assert isinstance(world, definition.state_type) and isinstance(world, Hydrated)
                assert type(world).model_validate_json(world.model_dump_json()) == world  # a valid state
                assert project(world, perspective) == view  # the perspective cannot tell it apart
                assert view.model_dump_json() == before  # the view was left alone
                assert not mutable_parts(world) & mutable_parts(view)
                random.seed(checked + 1)
                again = determinize(view, seat, random.Random(checked))
                assert again.model_dump_json() == world.model_dump_json()  # randomness from rng only
                checked += 1
    assert checked >= sum(players + 1 for players in counts)  # each perspective, at some count
