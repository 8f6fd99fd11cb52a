"""``tabletop.dump_json`` writes the bytes of ``orjson.dumps(model.model_dump(mode="json"))``."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from enum import StrEnum

import orjson
import pytest
from pydantic import Field, field_serializer
from tabletop import AnyState, GameConfig, GameEngine, Model, dump_json
from tabletop.games import available, load
from tabletop.testing import TEST_PRNG_KEY, make_game

AnyEngine = GameEngine[AnyState, GameConfig]


def _reference(model: Model) -> bytes:
    return orjson.dumps(model.model_dump(mode="json"))


@pytest.mark.parametrize("name", available())
def test_states_plain_states_and_actions_dump_as_pydantic_would(name: str) -> None:
    definition = load(name)
    engine: AnyEngine = GameEngine(definition)
    game = make_game(definition, players=min(max(2, definition.min_players), definition.max_players), seed=5)
    state = engine.start(game, prng_key=TEST_PRNG_KEY).state
    rng = random.Random(5)
    for step in range(30):
        assert dump_json(state) == _reference(state)
        plain = state.dehydrate()  # type: ignore[attr-defined]
        assert dump_json(plain) == _reference(plain)
        if state.result is not None:
            break
        legal = next(f for p in state.active_player_ids if (f := engine.legal_actions(state, p, game)))
        result = engine.run(rng.choice(legal).model_copy(update={"id": f"a{step}"}), state, game)
        for action in result.actions:
            assert dump_json(action) == _reference(action)
        state = result.state


class _Colour(StrEnum):
    RED = "red"


class _Inner(Model):
    score: float = 0.5
    tags: list[str] = Field(default_factory=list)


class _Custom(Model):
    when: datetime
    by_colour: dict[str, int] = Field(default_factory=dict)
    inner: _Inner | None = None

    @field_serializer("by_colour")
    def _sorted(self, value: dict[str, int]) -> dict[str, int]:
        return dict(sorted(value.items()))


class _Plain(Model):
    colour: _Colour = _Colour.RED
    counts: dict[str, int] = Field(default_factory=dict)
    inners: list[_Inner] = Field(default_factory=list)
    pair: tuple[int, str] = (1, "a")


@pytest.mark.parametrize(
    "model",
    [
        _Plain(counts={"b": 2, "a": 1}, inners=[_Inner(tags=["x"]), _Inner(score=float("inf"))]),
        _Plain(counts={_Colour.RED: 3}),  # a str-enum key orjson refuses: pydantic writes it
        _Custom(when=datetime(2024, 5, 1, tzinfo=UTC), by_colour={"z": 1, "a": 2}, inner=_Inner()),
    ],
)
def test_models_with_serializers_datetimes_and_odd_keys_dump_the_same_bytes(model: Model) -> None:
    assert dump_json(model) == _reference(model)
