"""The engine's fast paths: ``run(..., in_place=True)`` and re-validating the game's own action objects."""

from __future__ import annotations

import random

import orjson
import pytest
from pydantic import BaseModel
from tabletop import AnyState, GameConfig, GameEngine, IllegalActionError
from tabletop._engine import run_owned
from tabletop.games import available
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop_fixtures.seated import seated
from typeguard import TypeCheckError

AnyEngine = GameEngine[AnyState, GameConfig]


def _dump(state: AnyState) -> bytes:
    return orjson.dumps(state.model_dump(mode="json"))


@pytest.mark.parametrize("name", available())
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_in_place_runs_equal_the_safe_path_on_random_playouts(name: str, seed: int) -> None:
    # Three paths: the safe copy, run(in_place=True), and run_owned (a search's own candidate).
    engine, game = seated(name, seed, short=True)
    rng = random.Random(seed)
    safe = engine.start(game, prng_key=TEST_PRNG_KEY).state
    owned = engine.copy_state(safe)
    handed = engine.copy_state(safe)
    for step in range(500):
        if safe.result is not None:
            break
        legal = next(
            found for player in safe.active_player_ids if (found := engine.legal_actions(safe, player, game))
        )
        action = rng.choice(legal).model_copy(update={"id": f"a{step}"})
        submitted = _dump_action(action)
        before = _dump(safe)
        expected = engine.run(action, safe, game)
        got = engine.run(action, owned, game, in_place=True)
        assert _dump(safe) == before  # the safe path never touches its input
        assert got.state is owned
        assert _dump(owned) == _dump(expected.state)
        assert [_dump_action(a) for a in got.actions] == [_dump_action(a) for a in expected.actions]
        assert _dump_action(action) == submitted  # neither path changes the submitted object
        candidate = action.model_copy()  # a fresh candidate, handed over: recorded as it is
        run_owned(engine, candidate, handed, game)
        assert _dump(handed) == _dump(owned)
        assert _dump_action(candidate) == _dump_action(expected.actions[0])
        safe = expected.state
    assert safe.result is not None, f"{name} did not finish within 500 actions"


def _dump_action(action: BaseModel) -> bytes:
    return orjson.dumps(action.model_dump(mode="json"))


def test_in_place_changes_the_given_state_and_the_default_does_not(
    tic_tac_toe: tuple[AnyEngine, AnyState],
) -> None:
    engine, state = tic_tac_toe
    game = make_game(engine.definition, players=2, seed=3)
    action = engine.legal_actions(state, "p1", game)[0].model_copy(update={"id": "a1"})
    owned = engine.copy_state(state)
    engine.run(action, state, game)
    assert state.action_count == 0
    engine.run(action, owned, game, in_place=True)
    assert owned.action_count == 1 and state.action_count == 0


def test_in_place_refuses_a_state_that_is_not_hydrated(tic_tac_toe: tuple[AnyEngine, AnyState]) -> None:
    engine, state = tic_tac_toe
    game = make_game(engine.definition, players=2, seed=3)
    action = engine.legal_actions(state, "p1", game)[0].model_copy(update={"id": "a1"})
    plain = state.dehydrate()  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="in_place needs"):
        engine.run(action, plain, game, in_place=True)
    assert engine.run(action, plain, game).state.action_count == 1  # the safe path hydrates it


def test_in_place_raises_the_same_errors(tic_tac_toe: tuple[AnyEngine, AnyState]) -> None:
    engine, state = tic_tac_toe
    game = make_game(engine.definition, players=2, seed=3)
    action = engine.legal_actions(state, "p1", game)[0]
    for raw in (action, action.model_copy(update={"id": "a1", "player_id": "p2"})):
        codes = []
        for in_place in (False, True):
            with pytest.raises(IllegalActionError) as caught:
                engine.run(raw, engine.copy_state(state), game, in_place=in_place)
            codes.append(caught.value.code)
        assert codes[0] == codes[1]
        assert codes[0] in {"missing-id", "player-not-active"}


def test_an_own_action_object_is_still_validated(tic_tac_toe: tuple[AnyEngine, AnyState]) -> None:
    engine, state = tic_tac_toe
    game = make_game(engine.definition, players=2, seed=3)
    action = engine.legal_actions(state, "p1", game)[0]
    broken = action.model_copy(update={"id": "a1", "index": -1})  # model_copy does not validate
    with pytest.raises(IllegalActionError) as caught:
        engine.run(broken, state, game, in_place=True)
    assert (caught.value.code, caught.value.path) == ("invalid-value", "index")
    assert state.action_count == 0


def test_the_parsed_copy_of_an_own_action_never_aliases_it(tic_tac_toe: tuple[AnyEngine, AnyState]) -> None:
    engine, state = tic_tac_toe
    action = engine.legal_actions(state, "p1", make_game(engine.definition, players=2, seed=3))[0]
    parsed = engine.definition.parser.parse(action)
    assert parsed == action and parsed is not action and type(parsed) is type(action)
    assert parsed.model_fields_set == action.model_fields_set
    parsed.index = 7
    assert action.index is None
    assert "index" not in action.model_fields_set  # the fields-set is the copy's own too


@pytest.mark.parametrize("name", available())
def test_with_id_equals_model_copy_and_shares_nothing_mutable(name: str) -> None:
    engine, game = seated(name, 1)
    state = engine.start(game, prng_key=TEST_PRNG_KEY).state
    player = next(p for p in state.active_player_ids if engine.legal_actions(state, p, game))
    for candidate in engine.legal_actions(state, player, game):
        copied = candidate.with_id("a1")
        expected = candidate.model_copy(update={"id": "a1"})
        assert type(copied) is type(candidate)
        assert _dump_action(copied) == _dump_action(expected)
        assert copied.model_fields_set == expected.model_fields_set
        assert candidate.id == "" and "id" in copied.model_fields_set
        assert copied.__dict__ is not candidate.__dict__
        assert copied.__pydantic_fields_set__ is not candidate.__pydantic_fields_set__


def test_with_id_takes_only_a_string(tic_tac_toe: tuple[AnyEngine, AnyState]) -> None:
    engine, state = tic_tac_toe
    action = engine.legal_actions(state, "p1", make_game(engine.definition, players=2, seed=3))[0]
    # typeguard (on in the fast test tier) refuses it at the call; without it, with_id does
    with pytest.raises((TypeError, TypeCheckError), match=r"an action id is a string|action_id"):
        action.with_id(7)  # type: ignore[arg-type]
