"""A secret PRNG key makes the stream unpredictable without the key, and never reaches a view."""

import hashlib

import pydantic
import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import JsonValue
from tabletop import (
    ActionSource,
    AnyState,
    Game,
    GameAction,
    GameConfig,
    GameEngine,
    Prng,
    PrngState,
    new_prng_key,
)
from tabletop.bots import RandomBot, playout
from tabletop.games import load
from tabletop.testing import GameHarness, make_game
from tabletop.views import SPECTATOR, Perspective, project, project_log
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
    with pytest.raises(pydantic.ValidationError, match="hex digits"):
        make_game(load("go-fish"), prng_key=key)


@pytest.mark.parametrize("key", ["a" * 32, "A" * 64, "0" * 128])
def test_keys_of_128_to_512_bits_are_accepted(key: str) -> None:
    assert PrngState(seed=1, key=key).key == key


def test_new_prng_key_is_a_fresh_valid_128_bit_key() -> None:
    first, second = new_prng_key(), new_prng_key()
    assert len(first) == 32 and int(first, 16) >= 0
    assert first != second
    assert PrngState(seed=0, key=first).key == first


def play(game: Game[GameConfig]) -> tuple[list[AnyState], list[GameAction]]:
    """A seeded random go-fish playout: the state after each step, and the submitted actions."""
    engine: GameEngine[AnyState, GameConfig] = GameEngine(load("go-fish"))
    states: list[AnyState] = []
    submitted: list[GameAction] = []
    for result in playout(engine, game, RandomBot(engine, 3)):
        states.append(result.state)
        submitted.extend(action for action in result.actions if action.source is ActionSource.USER)
    return states, submitted


def dumps(states: list[AnyState]) -> list[dict[str, JsonValue]]:
    return [state.model_dump(mode="json") for state in states]


def test_a_keyed_engine_game_differs_from_the_keyless_one_and_replays_identically() -> None:
    definition = load("go-fish")
    keyed_game = make_game(definition, players=3, seed=42, prng_key=KEY)
    keyed_states, submitted = play(keyed_game)
    keyless_states, _ = play(make_game(definition, players=3, seed=42))
    first, keyless_first = keyed_states[0], keyless_states[0]
    assert first.prng.key == KEY and keyless_first.prng.key is None
    assert first.id != keyless_first.id
    assert first.model_dump(include={"deck", "players"}) != keyless_first.model_dump(
        include={"deck", "players"}
    )
    assert dumps(play(keyed_game)[0]) == dumps(keyed_states)
    engine: GameEngine[AnyState, GameConfig] = GameEngine(definition)
    state = engine.start(keyed_game).state
    replayed = [state]
    for action in submitted:
        state = engine.run(action.model_dump(mode="json"), state, keyed_game).state
        replayed.append(state)
    assert dumps(replayed) == dumps(keyed_states)


def test_the_key_never_appears_in_any_projection() -> None:
    key = new_prng_key()
    harness = GameHarness.for_game("go-fish", players=3, seed=8, prng_key=key)
    assert harness.state.prng.key == key
    states, submitted = play(harness.game)
    assert len(states) > 2 and all(key in state.model_dump_json() for state in states)
    perspectives: list[Perspective] = ["p1", "p2", "p3", SPECTATOR]
    for perspective in perspectives:
        for state in states:
            assert key not in project(state, perspective).model_dump_json()
        assert all(key not in action.model_dump_json() for action in project_log(submitted, perspective))
