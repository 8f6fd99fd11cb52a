"""The engine's fast bookkeeping writes: same values, same ``model_fields_set``, same checksum."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ConfigDict, ValidationError
from tabletop import (
    UNKEYED,
    AnyState,
    Game,
    GameConfig,
    GameEngine,
    MachineContext,
    Model,
    Prng,
    PrngState,
)
from tabletop._checksum import fnv1a52, next_checksum
from tabletop._model import writes_directly
from tabletop.bots import RandomBot
from tabletop.components import FrozenDict, Turn, TurnManager
from tabletop.games import load
from tabletop.testing import make_game

_OFFSET, _PRIME, _MASK64 = 0xCBF29CE484222325, 0x100000001B3, 0xFFFFFFFFFFFFFFFF


def _reference_fnv1a52(text: str) -> int:
    """The checksum's definition, step by step: mask after every unit, fold at the end."""
    raw = text.encode("utf-16-le", "surrogatepass")
    h = _OFFSET
    for i in range(0, len(raw), 2):
        h = ((h ^ (raw[i] | (raw[i + 1] << 8))) * _PRIME) & _MASK64
    return (h & 0x000FFFFFFFFF0000) | ((h & 0xFFFF) ^ (h >> 52))


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - 2**32 if value & 2**31 else value


@given(st.text(), st.integers(-(2**31), 2**31 - 1), st.integers(0, 10**9))
def test_the_checksum_equals_its_step_by_step_definition(text: str, checksum: int, index: int) -> None:
    assert fnv1a52(text) == _reference_fnv1a52(text)
    expected = _int32(_int32(checksum) ^ _int32(_reference_fnv1a52(f"{text}:{index}")))
    assert next_checksum(checksum, text, index) == expected


def test_turns_built_directly_equal_validated_ones() -> None:
    turns = TurnManager(turn_order=("a", "b")).started("a", 0)
    turn = turns.current_turn
    assert turn == Turn(player_id="a", start_index=0)
    assert turn.model_fields_set == Turn(player_id="a", start_index=0).model_fields_set
    turns = turns.started("b", 2)
    assert turns.last_turn == Turn(player_id="a", start_index=0, end_index=2)
    assert turns.last_turn.model_fields_set == {"player_id", "start_index", "end_index"}
    assert turns.model_fields_set >= {"turn_order", "current_turn", "last_turn", "turn_count", "turns_taken"}
    assert TurnManager.model_validate_json(turns.model_dump_json()) == turns
    assert type(turns.turns_taken) is FrozenDict and type(turns.turn_order) is tuple


def test_a_bad_turn_index_is_still_refused() -> None:
    turns = TurnManager(turn_order=("a",))
    with pytest.raises(ValidationError):
        turns.started("a", -1)


def test_a_subclass_of_the_managers_is_changed_through_pydantic() -> None:
    class Strict(TurnManager):
        pass

    turns = Strict(turn_order=("a",)).started("a", 0).ended(1)
    assert type(turns) is Strict
    assert turns.last_turn == Turn(player_id="a", start_index=0, end_index=1)
    prng = Prng(SubPrngState(seed=1))
    prng.random()
    assert type(prng.state) is SubPrngState and prng.state.invocations == 1


class SubPrngState(PrngState):
    pass


def test_models_that_validate_assignment_are_written_through_pydantic() -> None:
    class Strict(Model):
        model_config = ConfigDict(validate_assignment=True)
        prng: PrngState

    assert not writes_directly(Strict)
    owner = Strict(prng=PrngState(seed=1))
    Prng.over(owner).rand_id()
    assert owner.prng.invocations == 35 and "prng" in owner.model_fields_set


def test_draws_and_turns_are_recorded_like_attribute_assignment() -> None:
    engine, game, state = _tic_tac_toe()
    ctx = MachineContext(state, game)
    before = state.prng
    ctx.prng.random()
    assert state.prng.invocations == before.invocations + 1 and before.invocations == 35  # the id
    assert state.prng.model_fields_set == {"seed", "invocations", "key"} | before.model_fields_set
    turns = state.turn_manager
    ctx.turns = turns.reversed()
    ctx.start_next_turn()
    assert state.turn_manager.turn_count == turns.turn_count + 1 and turns.turn_count == 1
    assert engine.load_state(state.model_dump_json()) == state


def _tic_tac_toe() -> tuple[GameEngine[AnyState, GameConfig], Game[GameConfig], AnyState]:
    definition = load("tic-tac-toe")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=3)
    return engine, game, engine.start(game, prng_key=UNKEYED).state


@pytest.mark.parametrize("name", ["tic-tac-toe", "go-fish", "goofspiel"])
def test_a_run_records_its_writes_like_attribute_assignment(name: str) -> None:
    definition = load(name)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=2, seed=3)
    state = engine.start(game, prng_key=UNKEYED).state
    bot = RandomBot(engine, 3)
    player = next(p for p in state.active_player_ids if engine.legal_actions(state, p, game))
    before = state.model_dump_json()
    action = bot.choose(state, player, game)
    assert action is not None
    result = engine.run(action, state, game)
    assert state.model_dump_json() == before  # the copying run leaves its input alone
    assert {"action_count", "action_checksum"} <= result.state.model_fields_set
    assert all("index" in action.model_fields_set for action in result.actions)
    first = state.action_count  # goofspiel's first prize came up at the start (a RevealPrize)
    assert [action.index for action in result.actions] == list(range(first, first + len(result.actions)))
    assert engine.load_state(result.state.model_dump_json()) == result.state
