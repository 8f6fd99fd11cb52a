"""``run_owned``: the searches' in-place run of a candidate they own, with every rule still applied.

That it equals ``run`` over random playouts of every game: ``test_engine_fast_paths``.
"""

from __future__ import annotations

import orjson
import pytest
from pydantic import BaseModel
from tabletop import (
    AnyState,
    GameAction,
    GameConfig,
    GameEngine,
    Hydrated,
    HydratedAction,
    IllegalActionError,
)
from tabletop._engine import run_owned
from tabletop.games import load
from tabletop.testing import TEST_PRNG_KEY, make_game

AnyEngine = GameEngine[AnyState, GameConfig]


def _dump(model: BaseModel) -> bytes:
    return orjson.dumps(model.model_dump(mode="json"))


@pytest.mark.parametrize(
    ("update", "code"),
    [({}, "missing-id"), ({"id": "a1", "player_id": "p2"}, "player-not-active")],
)
def test_run_owned_refuses_what_run_refuses(
    tic_tac_toe: tuple[AnyEngine, AnyState], update: dict[str, str], code: str
) -> None:
    engine, state = tic_tac_toe
    game = make_game(engine.definition, players=2, seed=3)
    before = _dump(state)
    candidate = engine.legal_actions(state, "p1", game)[0]
    for name, value in update.items():
        setattr(candidate, name, value)
    with pytest.raises(IllegalActionError) as caught:
        run_owned(engine, candidate, engine.copy_state(state), game)
    assert caught.value.code == code
    with pytest.raises(IllegalActionError) as by_run:
        engine.run(candidate, state, game)
    assert by_run.value.code == code
    assert _dump(state) == before


def test_run_owned_takes_anything_else_through_run(tic_tac_toe: tuple[AnyEngine, AnyState]) -> None:
    engine, state = tic_tac_toe
    game = make_game(engine.definition, players=2, seed=3)
    definition = load("go-fish")
    other_game = make_game(definition, players=2, seed=3)
    other: AnyEngine = GameEngine(definition)
    started = other.start(other_game, prng_key=TEST_PRNG_KEY).state
    foreign = other.legal_actions(started, started.active_player_ids[0], other_game)[0].with_id("a1")
    foreign.game_id = state.game_id
    working = engine.copy_state(state)
    before = _dump(working)
    with pytest.raises(IllegalActionError) as caught:
        run_owned(engine, foreign, working, game)  # another game's action: run's parser refuses it
    assert caught.value.code == "unknown-action-type"
    assert _dump(working) == before
    assert isinstance(state, Hydrated)
    candidate = engine.legal_actions(state, "p1", game)[0].with_id("a2")
    with pytest.raises(TypeError, match="in_place needs"):
        run_owned(engine, candidate, state.dehydrate(), game)


def test_run_owned_checks_unless_the_caller_did(
    tic_tac_toe: tuple[AnyEngine, AnyState], monkeypatch: pytest.MonkeyPatch
) -> None:
    engine, state = tic_tac_toe
    game = make_game(engine.definition, players=2, seed=3)
    candidate = engine.legal_actions(state, "p1", game)[0]
    candidate.id = "a1"
    kind = type(candidate)
    calls: list[str] = []
    original = kind.check

    def counted(self: HydratedAction[GameAction, AnyState, GameConfig], ctx: object) -> None:
        calls.append(self.id)
        original(self, ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(kind, "check", counted)
    run_owned(engine, candidate, engine.copy_state(state), game)
    assert calls == ["a1"]
    again = candidate.model_copy(update={"id": "a2", "index": None})
    run_owned(engine, again, engine.copy_state(state), game, checked=True)
    assert calls == ["a1"]  # the caller checked it on this state: not run twice
    taken = engine.run(candidate.model_copy(update={"index": None}), state, game).state
    repeat = candidate.model_copy(update={"id": "a3", "index": None, "player_id": "p2"})
    with pytest.raises(IllegalActionError) as caught:
        run_owned(engine, repeat, taken, game)  # the square is taken now: check refuses it
    assert caught.value.code == "square-taken"
