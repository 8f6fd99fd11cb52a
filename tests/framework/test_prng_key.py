"""A secret PRNG key makes the stream unpredictable without the key, and never reaches a view."""

import hashlib
import json
from pathlib import Path

import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import JsonValue
from tabletop import (
    UNKEYED,
    ActionSource,
    AnyState,
    Game,
    GameAction,
    GameConfig,
    GameDefinition,
    GameEngine,
    Prng,
    PrngKeyError,
    PrngState,
    Unkeyed,
    new_prng_key,
)
from tabletop.bots import RandomBot, playout
from tabletop.games import available, load
from tabletop.schemas import request_model
from tabletop.testing import TEST_PRNG_KEY, GameHarness, make_game
from tabletop.views import SPECTATOR, Perspective, declares_visibility, project, project_log
from tabletop_fixtures import dice, sealed_bids
from tabletop_fixtures.counter import make_definition as make_counter
from tabletop_fixtures.prng_reference import reference_rand_id, reference_shuffle

KEY = "000102030405060708090a0b0c0d0e0f"
OTHER_KEY = "f0e0d0c0b0a090807060504030201000"

seeds = st.integers(min_value=0, max_value=2**32 - 1)
starts = st.integers(min_value=0, max_value=10**9)
keys = st.binary(min_size=16, max_size=64).map(bytes.hex)


def keyed_draw(key: str, seed: int, n: int) -> float:
    """Draw ``n`` (0-based) of a keyed stream, straight from its documented definition."""
    message = seed.to_bytes(4, "big") + n.to_bytes(8, "big")
    digest = hashlib.blake2b(message, key=bytes.fromhex(key), digest_size=8).digest()
    return (int.from_bytes(digest, "big") >> 11) / 2**53


def draws(state: PrngState, count: int) -> list[float]:
    prng = Prng(state)
    return [prng.random() for _ in range(count)]


def test_keyless_stream_keeps_the_reference_vectors() -> None:
    prng = Prng(PrngState(seed=42, key=None))
    assert [prng.random() for _ in range(3)] == [
        0.12848330102860928,
        0.03353364090435207,
        0.07509804493747652,
    ]
    items = list(range(10))
    Prng(PrngState(seed=42)).shuffle(items)
    assert items == [6, 2, 5, 7, 3, 9, 4, 8, 0, 1]
    assert Prng(PrngState(seed=42)).rand_id() == "r2652AMFsgH3rulqeOVbc"


def test_a_state_serializes_its_key_so_a_host_resumes_the_same_stream() -> None:
    keyless = PrngState(seed=1, invocations=41)
    assert keyless.model_dump(mode="json") == {"seed": 1, "invocations": 41, "key": None}
    assert PrngState.model_validate({"seed": 1, "invocations": 41}) == keyless
    keyed = PrngState(seed=1, invocations=41, key=KEY)
    assert keyed.model_dump(mode="json") == {"seed": 1, "invocations": 41, "key": KEY}
    restored = PrngState.model_validate_json(keyed.model_dump_json())
    assert draws(restored, 5) == draws(keyed, 5)


@pytest.mark.parametrize("seed", [0, 42, 2**32 - 1])
def test_keyed_draws_follow_the_documented_definition(seed: int) -> None:
    assert draws(PrngState(seed=seed, key=KEY), 20) == [keyed_draw(KEY, seed, n) for n in range(20)]


def test_keyed_draws_are_deterministic_and_depend_on_key_and_seed() -> None:
    first = draws(PrngState(seed=42, key=KEY), 50)
    assert first == draws(PrngState(seed=42, key=KEY), 50)
    assert all(0 <= value < 1 for value in first)
    assert first != draws(PrngState(seed=42, key=OTHER_KEY), 50)
    assert first != draws(PrngState(seed=43, key=KEY), 50)
    assert first != draws(PrngState(seed=42), 50)


def test_key_case_does_not_change_the_stream() -> None:
    upper = "ABCDEF0123456789ABCDEF0123456789"
    assert draws(PrngState(seed=5, key=upper), 10) == draws(PrngState(seed=5, key=upper.lower()), 10)


@pytest.mark.parametrize("count", [0, 1, 7, 35, 1000])
def test_keyed_stream_resumes_at_invocation_n_in_one_step(count: int) -> None:
    reference = Prng(PrngState(seed=7, key=KEY))
    for _ in range(count):
        reference.random()
    resumed = Prng(PrngState(seed=7, key=KEY, invocations=count))
    assert [resumed.random() for _ in range(5)] == [reference.random() for _ in range(5)]
    assert resumed.state.invocations == reference.state.invocations == count + 5


@given(seed=seeds, start=starts, key=keys)
def test_keyed_rand_id_is_the_step_by_step_id(seed: int, start: int, key: str) -> None:
    fast = Prng(PrngState(seed=seed, key=key, invocations=start))
    slow = Prng(PrngState(seed=seed, key=key, invocations=start))
    assert [fast.rand_id() for _ in range(3)] == [reference_rand_id(slow) for _ in range(3)]
    assert fast.state.invocations == slow.state.invocations
    assert (fast.state.invocations - start) % 35 == 0


@given(seed=seeds, start=starts, key=keys, size=st.integers(min_value=0, max_value=60))
def test_keyed_shuffle_is_the_step_by_step_fisher_yates(seed: int, start: int, key: str, size: int) -> None:
    fast = Prng(PrngState(seed=seed, key=key, invocations=start))
    slow = Prng(PrngState(seed=seed, key=key, invocations=start))
    items = list(range(size))
    fast.shuffle(items)
    assert items == reference_shuffle(slow, list(range(size)))
    assert fast.state.invocations == slow.state.invocations == start + max(size - 1, 0)
    assert fast.random() == slow.random()


def test_keyed_helpers_draw_from_the_same_stream() -> None:
    values = [keyed_draw(KEY, 9, n) for n in range(5)]
    prng = Prng(PrngState(seed=9, key=KEY))
    assert prng.rand_int(10) == int(values[0] * 10)
    assert prng.rand_range(3, 8) == int(values[1] * 6) + 3
    assert prng.die_roll(20) == 1 + int(values[2] * 20)
    assert prng.pick_random("abcdefg") == "abcdefg"[int(values[3] * 7)]
    assert prng.random() == values[4]


@pytest.mark.parametrize(
    "key",
    [
        "",
        "0" * 30,  # 120 bits: too short
        "0" * 33,  # odd number of digits
        "0" * 130,  # longer than BLAKE2b's 64-byte key
        "g" * 32,  # not hex
        "00112233445566778899aabbccddeef ",  # whitespace
    ],
)
def test_invalid_keys_are_rejected(key: str) -> None:
    with pytest.raises(pydantic.ValidationError, match="hex digits"):
        PrngState(seed=1, key=key)
    definition = load("go-fish")
    with pytest.raises(PrngKeyError, match="hex digits") as caught:
        GameEngine(definition).start(make_game(definition), prng_key=key)
    assert caught.value.code == "invalid-prng-key"
    assert not key.strip() or key not in str(caught.value)  # the message never quotes the key


@pytest.mark.parametrize("key", ["a" * 32, "A" * 64, "0" * 128])
def test_keys_of_128_to_512_bits_are_accepted(key: str) -> None:
    assert PrngState(seed=1, key=key).key == key


def test_new_prng_key_is_a_fresh_valid_128_bit_key() -> None:
    first, second = new_prng_key(), new_prng_key()
    assert len(first) == 32 and int(first, 16) >= 0
    assert first != second
    assert PrngState(seed=0, key=first).key == first


def play(game: Game[GameConfig], key: str | Unkeyed) -> tuple[list[AnyState], list[GameAction]]:
    """A seeded random go-fish playout: the state after each step, and the submitted actions."""
    engine: GameEngine[AnyState, GameConfig] = GameEngine(load("go-fish"))
    states: list[AnyState] = []
    submitted: list[GameAction] = []
    for result in playout(engine, game, RandomBot(engine, 3), prng_key=key):
        states.append(result.state)
        submitted.extend(action for action in result.actions if action.source is ActionSource.USER)
    return states, submitted


def dumps(states: list[AnyState]) -> list[dict[str, JsonValue]]:
    return [state.model_dump(mode="json") for state in states]


def test_a_keyed_engine_game_differs_from_the_keyless_one_and_replays_identically() -> None:
    definition = load("go-fish")
    keyed_game = make_game(definition, players=3, seed=42)
    keyed_states, submitted = play(keyed_game, KEY)
    keyless_states, _ = play(keyed_game, UNKEYED)
    first, keyless_first = keyed_states[0], keyless_states[0]
    assert first.prng.key == KEY and keyless_first.prng.key is None
    assert first.id != keyless_first.id
    assert first.model_dump(include={"deck", "players"}) != keyless_first.model_dump(
        include={"deck", "players"}
    )
    assert dumps(play(keyed_game, KEY)[0]) == dumps(keyed_states)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    state = engine.start(keyed_game, prng_key=KEY).state
    replayed = [state]
    for action in submitted:
        body = action.model_dump(mode="json", include=set(request_model(type(action)).model_fields))
        state = engine.run(body, state, keyed_game).state
        replayed.append(state)
    assert dumps(replayed) == dumps(keyed_states)


def test_the_key_never_appears_in_any_projection() -> None:
    key = new_prng_key()
    harness = GameHarness.for_game("go-fish", players=3, seed=8, prng_key=key)
    assert harness.state.prng.key == key
    states, submitted = play(harness.game, key)
    assert len(states) > 2 and all(key in state.model_dump_json() for state in states)
    perspectives: list[Perspective] = ["p1", "p2", "p3", SPECTATOR]
    for perspective in perspectives:
        for state in states:
            assert key not in project(state, perspective).model_dump_json()
        assert all(key not in action.model_dump_json() for action in project_log(submitted, perspective))


def _definitions() -> dict[str, GameDefinition[AnyState, GameConfig]]:
    fixtures: list[GameDefinition[AnyState, GameConfig]] = [
        dice.definition,  # type: ignore[list-item]
        sealed_bids.make_definition(),  # type: ignore[list-item]
        make_counter(),  # type: ignore[list-item]
    ]
    return {**{name: load(name) for name in available()}, **{d.name: d for d in fixtures}}


NEEDS_KEY: dict[str, frozenset[str]] = {
    "backgammon": frozenset({"chance"}),
    "go-fish": frozenset({"hidden", "chance"}),
    "goofspiel": frozenset({"hidden", "chance"}),
    "gallery": frozenset({"hidden"}),
    "hearts": frozenset({"hidden", "chance"}),
    "pig": frozenset({"chance"}),
    "dice": frozenset({"chance"}),
    "sealed-bids": frozenset({"hidden"}),
}
"""Games and fixtures that may start only keyed, and why: hidden information, chance, or both."""


@pytest.mark.parametrize("name", sorted(_definitions()))
def test_games_with_hidden_information_or_chance_need_a_key_to_start(name: str) -> None:
    definition = _definitions()[name]
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, players=max(2, definition.min_players))
    why = NEEDS_KEY.get(name, frozenset())
    assert definition.requires_prng_key is bool(why)
    assert definition.hidden_information is ("hidden" in why)
    assert definition.chance is ("chance" in why)
    if not why:
        assert engine.start(game).state.prng.key is None
    else:
        with pytest.raises(PrngKeyError, match="new_prng_key") as caught:
            engine.start(game)
        assert caught.value.code == "prng-key-required"
    assert engine.start(game, prng_key=KEY).state.prng.key == KEY
    unkeyed = engine.start(game, prng_key=UNKEYED).state
    assert unkeyed.prng.key is None
    assert unkeyed.id == Prng(PrngState(seed=game.seed)).rand_id()  # the reference stream from the seed


@pytest.mark.parametrize("name", sorted(_definitions()))
def test_hidden_information_is_read_off_the_view_policies(name: str) -> None:
    definition = _definitions()[name]
    assert definition.hidden_information is declares_visibility(definition.state_type)


def test_the_game_clients_see_has_no_key() -> None:
    definition = load("go-fish")
    game = make_game(definition)
    assert "prng_key" not in Game.model_fields and "prng_key" not in game.model_dump()
    with pytest.raises(pydantic.ValidationError, match="prng_key"):
        definition.game_type.model_validate({**game.model_dump(mode="json"), "prng_key": KEY})
    schema = json.loads((Path(__file__).parents[2] / "schemas" / "common" / "game.json").read_text())
    assert "prng_key" not in schema["properties"] and "prng_key" not in Game.model_json_schema()["properties"]


@pytest.mark.parametrize("name", available())
def test_a_host_reads_a_stored_game_back_with_its_typed_config(name: str) -> None:
    definition = load(name)
    game = make_game(definition)
    stored = game.model_dump_json()
    again = definition.game_type.model_validate_json(stored)
    assert again == game and type(again.config) is definition.config_type
    assert definition.game_type is definition.game_type


def test_the_bare_game_model_cannot_read_a_config_with_options() -> None:
    definition = load("goofspiel")
    stored = make_game(definition).model_dump_json()
    with pytest.raises(pydantic.ValidationError, match="cards"):
        Game.model_validate_json(stored)
    assert definition.game_type.model_validate_json(stored).config.model_dump() == {
        "cards": 13,
        "points_order": "random",
    }


def test_the_harness_starts_keyed_games_with_the_test_key_unless_told_otherwise() -> None:
    keyed = GameHarness.for_game("go-fish", players=2, seed=4)
    assert keyed.prng_key == keyed.state.prng.key == TEST_PRNG_KEY
    assert GameHarness.for_game("go-fish", players=2, seed=4).state == keyed.state  # reproducible
    assert GameHarness.for_game("go-fish", players=2, seed=4, prng_key=UNKEYED).state.prng.key is None
    assert GameHarness.for_game("tic-tac-toe", seed=4).prng_key is None


def test_playout_gives_a_game_that_needs_a_key_a_fresh_one() -> None:
    definition = load("goofspiel")
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    game = make_game(definition, seed=9)
    first = next(iter(playout(engine, game, RandomBot(engine, 1)))).state
    second = next(iter(playout(engine, game, RandomBot(engine, 1)))).state
    assert None not in (first.prng.key, second.prng.key) and first.prng.key != second.prng.key
    assert first.id != second.id
