"""Lazily built candidates: a rollout builds only the candidate it draws, and nothing unbuilt escapes.

The fast path (``LegalActions.offered(..., lazy=True)`` and ``tabletop._lazy.built``) stands beside
the engine's own (``enumerate``'s built candidates, ``legal_actions``): over random playouts of every
installed game they give the same candidates, the same legal set and the same states, byte for byte.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterable
from typing import Any

import orjson
import pytest
from pydantic import BaseModel, ValidationError
from tabletop import AnyState, GameConfig, GameEngine, IllegalActionError, MachineContext
from tabletop._engine import run_owned
from tabletop._lazy import UnbuiltCandidates, built, is_unbuilt, lazy_candidates
from tabletop._legal import LegalActions
from tabletop.bots import action_key
from tabletop.bots._rollout import RandomRollout
from tabletop.games import available, load
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop_fixtures.seated import seated
from tabletop_tic_tac_toe.actions.place_mark import HydratedPlaceMark

AnyEngine = GameEngine[AnyState, GameConfig]


def _dump(model: BaseModel) -> bytes:
    return orjson.dumps(model.model_dump(mode="json"))


def _same_model(lazy: BaseModel, eager: BaseModel) -> None:
    assert type(lazy) is type(eager)
    assert list(lazy.__dict__) == list(eager.__dict__)  # the same fields, in the same order
    assert lazy.__dict__ == eager.__dict__
    assert lazy.model_fields_set == eager.model_fields_set
    assert _dump(lazy) == _dump(eager)


@pytest.mark.parametrize("name", available())
@pytest.mark.parametrize("seed", [0, 1])
def test_lazy_candidates_build_what_enumerate_builds_over_random_playouts(name: str, seed: int) -> None:
    engine, game = seated(name, seed, short=True)
    offered = LegalActions(engine.definition).offered
    rng = random.Random(seed)
    state = engine.start(game, prng_key=TEST_PRNG_KEY).state
    for step in range(400):
        if state.result is None:
            for player_id in state.active_player_ids:
                ctx = MachineContext(state, game)
                eager = [c for candidates, _ in offered(state, player_id, ctx) for c in candidates]
                lazy = [c for candidates, _ in offered(state, player_id, ctx, lazy=True) for c in candidates]
                assert len(lazy) == len(eager)
                for unbuilt, candidate in zip(lazy, eager, strict=True):
                    _same_model(built(unbuilt), candidate)
            legal = next(
                found for p in state.active_player_ids if (found := engine.legal_actions(state, p, game))
            )
            state = engine.run(rng.choice(legal).with_id(f"a{step}"), state, game).state
    assert state.result is not None, f"{name} did not finish within 400 actions"


@pytest.mark.parametrize("name", available())
def test_a_lazy_rollout_draws_the_legal_set_and_plays_the_same_states_as_built_candidates(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine, game = seated(name, 2, short=True)
    start = engine.start(game, prng_key=TEST_PRNG_KEY).state
    for state in (start,):
        for seat in game.players:  # every drawn action is one of the engine's legal actions
            legal = {action_key(action) for action in engine.legal_actions(state, seat.id, game)}
            rollout: RandomRollout[AnyState, GameConfig] = RandomRollout(engine)
            for draw in range(20):
                drawn = rollout.choose(state, seat.id, game, random.Random(draw))
                assert (drawn is None) == (not legal)
                if drawn is not None:
                    assert not is_unbuilt(drawn)
                    assert action_key(drawn) in legal
    finals = [_rollout_final(engine, start, game)]
    eager = LegalActions.offered

    def built_now(self: Any, state: Any, player_id: str, ctx: Any, *, lazy: bool = False) -> Any:
        return eager(self, state, player_id, ctx)  # the engine's own enumeration: every candidate built

    monkeypatch.setattr(LegalActions, "offered", built_now)
    finals.append(_rollout_final(engine, start, game))
    assert finals[0] == finals[1]


def _rollout_final(engine: AnyEngine, start: AnyState, game: Any) -> bytes:
    state = engine.copy_state(start)
    RandomRollout(engine).play(state, game, random.Random(5), 2_000)
    return _dump(state)


@pytest.fixture
def tic_tac_toe() -> tuple[AnyEngine, AnyState]:
    """Tic-tac-toe's engine and a started 2-player game of it (seed 3)."""
    definition = load("tic-tac-toe")
    engine: AnyEngine = GameEngine(definition)
    return engine, engine.start(make_game(definition, players=2, seed=3)).state


def _ttt(tic_tac_toe: tuple[AnyEngine, AnyState]) -> tuple[AnyEngine, Any, Any]:
    engine, state = tic_tac_toe
    return engine, state, make_game(engine.definition, players=2, seed=3)


def _unbuilt(state: Any, **fields: object) -> Any:
    token = lazy_candidates.set(True)
    try:
        return HydratedPlaceMark.candidate(state, "p1", **fields)
    finally:
        lazy_candidates.reset(token)


def test_candidate_validates_outside_a_lazy_draw(tic_tac_toe: tuple[AnyEngine, AnyState]) -> None:
    _, state, _ = _ttt(tic_tac_toe)
    with pytest.raises(ValidationError):
        HydratedPlaceMark.candidate(state, "p1", square={"x": "not a column", "y": 0})
    unbuilt = _unbuilt(state, square={"x": "not a column", "y": 0})
    assert isinstance(unbuilt, HydratedPlaceMark) and is_unbuilt(unbuilt)
    with pytest.raises(ValidationError):
        built(unbuilt)  # building it is the same validation


def test_a_lazy_draw_in_one_thread_leaves_other_threads_building(
    tic_tac_toe: tuple[AnyEngine, AnyState],
) -> None:
    _, state, _ = _ttt(tic_tac_toe)
    seen: list[BaseModel] = []
    token = lazy_candidates.set(True)
    try:
        worker = threading.Thread(
            target=lambda: seen.append(HydratedPlaceMark.candidate(state, "p1", square={"x": 0, "y": 0}))
        )
        worker.start()
        worker.join()
    finally:
        lazy_candidates.reset(token)
    assert seen[0].model_fields_set == {"id", "game_id", "player_id", "square"}


@pytest.mark.parametrize("entry", ["run", "run in place", "run_owned"])
def test_an_unbuilt_candidate_still_gets_the_full_check_on_every_entry_point(
    tic_tac_toe: tuple[AnyEngine, AnyState], entry: str
) -> None:
    # An action from outside the search is parsed and validated in full; so is an unbuilt
    # candidate handed to the engine's searches' own path: never recorded as it is.
    engine, state, game = _ttt(tic_tac_toe)
    before = _dump(state)
    bad = _unbuilt(state, square={"x": "seven", "y": 0})  # not a column: the model refuses it
    bad.__dict__["id"] = "a1"
    working = engine.copy_state(state)
    submit: Callable[[], object] = {
        "run": lambda: engine.run(bad, state, game),
        "run in place": lambda: engine.run(bad, working, game, in_place=True),
        "run_owned": lambda: run_owned(engine, bad, working, game),
    }[entry]
    with pytest.raises(IllegalActionError) as caught:
        submit()
    assert (caught.value.code, caught.value.path) == ("invalid-value", "square.x")
    assert _dump(state) == before
    good = _unbuilt(state, square={"x": 1, "y": 1})
    good.__dict__["id"] = "a2"
    owned = engine.copy_state(state)
    run_owned(engine, good, owned, game)
    expected = engine.run(
        HydratedPlaceMark.candidate(state, "p1", square={"x": 1, "y": 1}).with_id("a2"), state, game
    )
    assert _dump(owned) == _dump(expected.state)
    assert is_unbuilt(good)  # the engine validated a copy, never recorded it


def test_a_client_action_is_always_parsed_in_full(tic_tac_toe: tuple[AnyEngine, AnyState]) -> None:
    engine, state, game = _ttt(tic_tac_toe)
    body = {
        "id": "a1",
        "game_id": state.game_id,
        "type": "PlaceMark",
        "player_id": "p1",
        "square": {"x": "nine", "y": 0},
    }
    for raw in (body, orjson.dumps(body)):
        with pytest.raises(IllegalActionError) as caught:
            engine.run(raw, engine.copy_state(state), game, in_place=True)
        assert caught.value.code == "invalid-value"


def test_candidates_are_the_candidates_of_each_value_in_order(
    tic_tac_toe: tuple[AnyEngine, AnyState],
) -> None:
    _, state, _ = _ttt(tic_tac_toe)
    squares = state.board.empty_cells()
    one_by_one = [HydratedPlaceMark.candidate(state, "p1", square=square) for square in squares]
    made = HydratedPlaceMark.candidates(state, "p1", "square", iter(squares))  # any iterable
    assert isinstance(made, list)  # outside a draw: built, as candidate builds them
    assert len(made) == len(one_by_one) == 9
    for candidate, expected in zip(made, one_by_one, strict=True):
        _same_model(candidate, expected)
    with pytest.raises(ValidationError):
        HydratedPlaceMark.candidates(state, "p1", "square", [{"x": "not a column", "y": 0}])


def test_lazy_candidates_make_a_new_unbuilt_candidate_for_each_read(
    tic_tac_toe: tuple[AnyEngine, AnyState],
) -> None:
    _, state, _ = _ttt(tic_tac_toe)
    squares = state.board.empty_cells()
    eager = HydratedPlaceMark.candidates(state, "p1", "square", squares)
    lazy = _lazy_candidates_of(state, iter(squares))
    assert isinstance(lazy, UnbuiltCandidates) and len(lazy) == 9
    reads = [lazy[4], lazy[-1], *lazy[2:4], *lazy]
    assert all(is_unbuilt(read) for read in reads)
    assert lazy[4] is not lazy[4]  # each read is the reader's own
    for read, expected in zip(reads, [eager[4], eager[-1], *eager[2:4], *eager], strict=True):
        _same_model(built(read), expected)
    with pytest.raises(IndexError):
        lazy[9]
    refused = _lazy_candidates_of(state, [{"x": "not a column", "y": 0}])
    with pytest.raises(ValidationError):
        built(refused[0])  # nothing is validated until the read candidate is built


def _lazy_candidates_of(state: Any, values: Iterable[object]) -> Any:
    token = lazy_candidates.set(True)
    try:
        return HydratedPlaceMark.candidates(state, "p1", "square", values)
    finally:
        lazy_candidates.reset(token)
