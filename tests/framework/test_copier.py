"""Structural copies (``engine.copy_state``, ``dehydrate``) equal re-validating, and never alias."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

import orjson
import pytest
from pydantic import BaseModel, Field, ValidationError, field_validator
from tabletop import AnyState, GameConfig, GameEngine, Model, PrngState
from tabletop._copier import copier
from tabletop._hydration import _plain_model_of
from tabletop.components import TurnManager
from tabletop.games import available, load
from tabletop.testing import TEST_PRNG_KEY, make_game
from tabletop.views import project_seats
from tabletop_fixtures.aliasing import mutable_parts

AnyEngine = GameEngine[AnyState, GameConfig]


def _same(a: object, b: object, path: str = "state") -> None:
    """``a`` and ``b`` hold equal data in the same classes, model by model, with the same fields set."""
    assert type(a) is type(b), path
    if isinstance(a, BaseModel):
        assert isinstance(b, BaseModel)
        assert a.model_fields_set == b.model_fields_set, path
        assert list(a.__dict__) == list(b.__dict__), path
        for name, value in a.__dict__.items():
            _same(value, b.__dict__[name], f"{path}.{name}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), path
        for number, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, f"{path}[{number}]")
    elif isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), path
        for key, value in a.items():
            _same(value, b[key], f"{path}[{key!r}]")
    else:
        assert a == b, path


def _states(name: str, seed: int, limit: int = 40) -> list[AnyState]:
    definition = load(name)
    engine: AnyEngine = GameEngine(definition)
    players = min(max(2, definition.min_players), definition.max_players)
    game = make_game(definition, players=players, seed=seed)
    state = engine.start(game, prng_key=TEST_PRNG_KEY).state
    states = [state]
    rng = random.Random(seed)
    while state.result is None and len(states) < limit:
        legal = next(f for p in state.active_player_ids if (f := engine.legal_actions(state, p, game)))
        state = engine.run(rng.choice(legal).model_copy(update={"id": f"a{len(states)}"}), state, game).state
        states.append(state)
    return states


@pytest.mark.parametrize("name", available())
def test_copy_state_equals_revalidating_and_shares_nothing_mutable(name: str) -> None:
    engine: AnyEngine = GameEngine(load(name))
    for state in _states(name, seed=1):
        before = orjson.dumps(state.model_dump(mode="json"))
        copied = engine.copy_state(state)
        _same(type(state).model_validate(state), copied)
        assert not mutable_parts(copied) & mutable_parts(state)
        copied.players[0].player_id = "changed"
        assert orjson.dumps(state.model_dump(mode="json")) == before


@pytest.mark.parametrize("name", available())
def test_copies_share_the_immutable_bookkeeping(name: str) -> None:
    """The turn manager and the PRNG state are immutable: copies, plain forms, re-validated states
    and every seat's view hold the very same objects (issue #29)."""
    engine: AnyEngine = GameEngine(load(name))
    state = _states(name, seed=3, limit=6)[-1]
    turns, prng = state.turn_manager, state.prng
    assert type(turns) is TurnManager and type(prng) is PrngState
    for other in (engine.copy_state(state), state.dehydrate(), type(state).model_validate(state)):  # type: ignore[attr-defined]
        assert other.turn_manager is turns and other.prng is prng
    assert all(view.turn_manager is turns for view in project_seats(state).values())  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", available())
def test_dehydrate_equals_validating_the_fields_into_the_plain_model(name: str) -> None:
    for state in _states(name, seed=2):
        plain = _plain_model_of(type(state))
        expected = plain.model_validate(dict(state.__dict__))
        got = state.dehydrate()  # type: ignore[attr-defined]
        _same(expected, got)
        assert not mutable_parts(got) & mutable_parts(state)


def test_copy_state_hydrates_a_plain_state() -> None:
    definition = load("tic-tac-toe")
    engine: AnyEngine = GameEngine(definition)
    state = _states("tic-tac-toe", seed=3, limit=3)[-1]
    copied = engine.copy_state(state.dehydrate())  # type: ignore[attr-defined]
    assert type(copied) is definition.state_type
    assert copied == state


class _Normalised(Model):
    name: str

    @field_validator("name")
    @classmethod
    def _lower(cls, value: str) -> str:
        return value.lower()


class _Holder(Model):
    when: datetime | None = None
    anything: Any = None
    items: list[_Normalised] = Field(default_factory=list)


def test_a_model_the_copier_cannot_read_is_validated_instead() -> None:
    holder = _Holder(anything={"a": [1]}, items=[_Normalised(name="X")])
    copied = copier(_Holder)(holder)  # an untyped field: validated, as model_validate would
    assert copied == holder
    assert copied.items[0] is not holder.items[0]
    assert copied.model_fields_set == holder.model_fields_set
    assert copied.__pydantic_fields_set__ is not holder.__pydantic_fields_set__  # pydantic shares it
    assert copier(_Normalised)(_Normalised(name="Y")).name == "y"  # its validator ran


class _Point(Model):
    x: int
    tags: list[str] = Field(default_factory=list)


class _Point3(_Point):
    z: int = 0


class _SamePoint(_Point):
    def norm(self) -> int:
        return abs(self.x)


def test_a_generic_subclass_parametrized_alike_is_copied_field_by_field() -> None:
    """A hydrated board (``HydratedSquareBoard[str]``) into the plain ``SquareBoard[str]`` of a
    view: as re-validating, without it (pydantic makes neither class a subclass of the other)."""
    from tabletop import _copier
    from tabletop.boards import SquareBoard
    from tabletop.boards._square_board import HydratedSquareBoard

    board = HydratedSquareBoard[str](width=2, height=1, cells=[["x", None]])
    assert _copier._Fits(SquareBoard[str])[HydratedSquareBoard[str]]
    copied = copier(SquareBoard[str])(board)
    _same(copied, SquareBoard[str].model_validate(board))
    assert copied.cells is not board.cells and copied.cells[0] is not board.cells[0]
    assert not _copier._Fits(SquareBoard[str])[HydratedSquareBoard[int]]  # other arguments: validated
    numbers: Any = HydratedSquareBoard[int](width=1, height=1, cells=[[3]])  # (the wrong board, on purpose)
    with pytest.raises(ValidationError):
        copier(SquareBoard[str])(numbers)


def test_a_subclass_becomes_the_model_only_if_it_has_the_same_fields() -> None:
    same = _SamePoint(x=-2, tags=["a"])
    copied = copier(_Point)(same)
    assert type(copied) is _Point and copied == _Point.model_validate(same)
    assert copied.tags is not same.tags
    wider = _Point3(x=1, z=3)
    with pytest.raises(ValidationError) as expected:
        _Point.model_validate(wider)
    with pytest.raises(ValidationError) as got:
        copier(_Point)(wider)  # left to pydantic, which refuses the extra field
    assert got.value.errors() == expected.value.errors()
