"""The action codec and adapter hints: numbering, round trips and the author mistakes they catch."""

from __future__ import annotations

import doctest
from types import ModuleType
from typing import Self

import pytest
import tabletop.openspiel
import tabletop.pettingzoo
from pydantic import JsonValue
from tabletop import AnyState, Game, GameDefinition, GameDefinitionError
from tabletop.adapters import ActionCodec, ObservationTensor, adapter_hints, register_adapter_hints
from tabletop.adapters import _codec as codec_module
from tabletop.games import load
from tabletop.testing import GameHarness, make_game
from tabletop_fixtures.counter import make_definition
from tabletop_sample.actions.add_amount import HydratedAddAmount
from tabletop_sample.actions.pass_turn import HydratedPass
from tabletop_sample.model.config import SampleConfig
from tabletop_sample.model.game_state import HydratedSampleGameState


class DuplicateAmounts(HydratedAddAmount):
    @classmethod
    def action_space(cls, game: Game[SampleConfig]) -> list[dict[str, JsonValue]]:
        return [{"amount": 1}, {"amount": 2}, {"amount": 1}]


class TooLargeAmounts(HydratedAddAmount):
    @classmethod
    def action_space(cls, game: Game[SampleConfig]) -> list[dict[str, JsonValue]]:
        return [{"amount": 1}, {"amount": 99}]


class FewAmounts(HydratedAddAmount):
    @classmethod
    def action_space(cls, game: Game[SampleConfig]) -> list[dict[str, JsonValue]]:
        return [{"amount": 1}]

    @classmethod
    def enumerate(cls, state: HydratedSampleGameState, player_id: str) -> list[Self]:
        return [cls.candidate(state, player_id, amount=amount) for amount in (1, 2)]


def _sample_with(
    add_amount: type[HydratedAddAmount],
) -> GameDefinition[HydratedSampleGameState, SampleConfig]:
    sample = load("sample")
    return GameDefinition(
        name="sample",
        state_type=HydratedSampleGameState,
        config_type=SampleConfig,
        machine_states=sample.machine_states,
        initial_state=sample.initial_state,
        action_types=sample.action_types,
        actions=[add_amount, HydratedPass],
        handlers=sample.handlers,  # type: ignore[arg-type]
        setup=sample.setup,  # type: ignore[arg-type]
        min_players=1,
        max_players=6,
    )


def test_indexes_follow_definition_order_then_payload_order() -> None:
    definition = load("sample")
    codec = ActionCodec(definition, make_game(definition))
    assert [codec.payload(index) for index in range(codec.size)] == [
        *(("AddAmount", {"amount": amount}) for amount in range(1, 6)),
        ("Pass", {}),
    ]


def test_encoding_ignores_the_envelope() -> None:
    harness = GameHarness.for_game("sample", players=2, seed=5)
    codec = ActionCodec(harness.definition, harness.game)
    player = harness.state.active_player_ids[0]
    action = harness.action(HydratedAddAmount, player, amount=3)
    assert codec.encode(action) == 2
    assert codec.encode(action.model_copy(update={"id": "other", "index": 4})) == 2
    decoded = codec.decode(2, player, action_id="fresh")
    assert decoded.id == "fresh" and decoded.player_id == player and decoded.amount == 3  # type: ignore[attr-defined]
    harness.play(decoded)
    assert harness.state.total == 3  # type: ignore[attr-defined]


def test_a_payload_listed_twice_is_a_definition_error() -> None:
    definition = _sample_with(DuplicateAmounts)
    with pytest.raises(GameDefinitionError, match=r"lists \{'amount': 1\} twice"):
        ActionCodec(definition, make_game(definition))


def test_an_invalid_payload_is_a_definition_error() -> None:
    definition = _sample_with(TooLargeAmounts)
    with pytest.raises(GameDefinitionError, match=r"\{'amount': 99\} is invalid"):
        ActionCodec(definition, make_game(definition))


def test_an_enumerable_action_without_a_space_is_a_definition_error() -> None:
    definition = make_definition()
    with pytest.raises(
        GameDefinitionError, match="HydratedIncrement is enumerable but declares no action_space"
    ):
        ActionCodec(definition, make_game(definition))


def test_a_legal_action_outside_its_space_is_a_definition_error() -> None:
    definition = _sample_with(FewAmounts)
    game = make_game(definition)
    codec = ActionCodec(definition, game)
    state = GameHarness(definition).state
    first, second = FewAmounts.enumerate(state, state.active_player_ids[0])
    assert codec.encode(first) == 0
    with pytest.raises(GameDefinitionError, match="not in its action_space"):
        codec.encode(second)


def test_misuse_is_refused() -> None:
    definition = load("sample")
    codec = ActionCodec(definition, make_game(definition))
    with pytest.raises(IndexError, match=r"out of range 0\.\.5"):
        codec.decode(6, "p1", action_id="x")
    counter = make_definition()
    tick = counter.action_by_type["Tick"].model_validate({"id": "t", "game_id": "game-1"})
    with pytest.raises(ValueError, match="'Tick' has no action space"):
        codec.encode(tick)


def test_observation_tensors_check_their_shape() -> None:
    with pytest.raises(ValueError, match="positive sizes"):
        ObservationTensor(shape=(3, 0), encode=lambda state, player_id: [])
    tensor: ObservationTensor[AnyState] = ObservationTensor(shape=(2,), encode=lambda state, player_id: [1.0])
    state = GameHarness.for_game("sample").state
    with pytest.raises(ValueError, match="needs 2 values, got 1"):
        tensor.values(state, "p1")


def test_games_register_their_hints_when_loaded() -> None:
    load("tic-tac-toe")
    hints = adapter_hints("tic-tac-toe")
    assert hints.max_game_length == 9 and hints.perfect_information
    assert hints.observation_tensor is not None and hints.observation_tensor.shape == (3, 3, 3)
    assert adapter_hints("no-such-game").observation_tensor is None
    with pytest.raises(ValueError, match="must be positive"):
        register_adapter_hints("no-such-game", max_game_length=0)


@pytest.mark.parametrize("module", [codec_module, tabletop.openspiel, tabletop.pettingzoo])
def test_docstring_examples_run(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0
