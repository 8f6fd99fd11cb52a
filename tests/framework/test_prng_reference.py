"""The PRNG's vectorized and early-stopping paths draw exactly what the spec, step by step, draws.

The reference below is written from the documented definitions alone (splitmix32, keyed BLAKE2b,
35-draw id batches consumed last first, Fisher-Yates from the last index down): it never calls
the module under test, so a fast path that drifts from the spec fails here.
"""

import hashlib
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tabletop import Prng, PrngState
from tabletop import _prng as prng_module

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
KEY = "000102030405060708090a0b0c0d0e0f"
LONG_KEY = "ff" * 64

seeds = st.integers(min_value=0, max_value=2**32 - 1)
starts = st.one_of(
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=2**40),
    st.integers(min_value=2**32 - 80, max_value=2**32 + 80),  # the 32-bit counter wraps
)
keys = st.one_of(st.none(), st.binary(min_size=16, max_size=64).map(bytes.hex))
EDGE_SEEDS = [0, 1, 42, 0x9E3779B9, 2**31, 2**32 - 1]
EDGE_STARTS = [0, 1, 34, 35, 36, 69, 70, 2**32 - 35, 2**32 - 1, 2**32, 2**40 + 17]


def reference_draw(seed: int, key: str | None, n: int) -> float:
    """Draw ``n`` (0-based) of the stream, straight from the documented definition."""
    if key is not None:
        message = seed.to_bytes(4, "big") + n.to_bytes(8, "big")
        digest = hashlib.blake2b(message, key=bytes.fromhex(key), digest_size=8).digest()
        return (int.from_bytes(digest, "big") >> 11) / 2**53
    t = (seed + (n + 1) * 0x9E3779B9) % 2**32
    t = ((t ^ (t >> 16)) * 0x21F0AAAD) % 2**32
    t = ((t ^ (t >> 15)) * 0x735A2D97) % 2**32
    return (t ^ (t >> 15)) / 2**32


class ReferenceStream:
    """A seed, key and draw count: the spec's stream, one draw at a time."""

    def __init__(self, seed: int, key: str | None, start: int) -> None:
        self.seed, self.key, self.invocations = seed, key, start

    def random(self) -> float:
        value = reference_draw(self.seed, self.key, self.invocations)
        self.invocations += 1
        return value

    def rand_id(self, accepted: Callable[[int], bool] = lambda index: index < 62) -> str:
        """21 characters from batches of 35 bytes, consumed last to first, skipping rejected ones."""
        chars: list[str] = []
        while True:
            batch = [int(self.random() * 256) for _ in range(35)]
            for byte in reversed(batch):
                if accepted(byte & 63):
                    chars.append(ALPHABET[byte & 63])
                    if len(chars) == 21:
                        return "".join(chars)

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = int(self.random() * (i + 1))
            items[i], items[j] = items[j], items[i]


def pair(seed: int, key: str | None, start: int) -> tuple[Prng, ReferenceStream]:
    return Prng(PrngState(seed=seed, invocations=start, key=key)), ReferenceStream(seed, key, start)


@pytest.mark.parametrize("key", [None, KEY, LONG_KEY])
@pytest.mark.parametrize("start", EDGE_STARTS)
@pytest.mark.parametrize("seed", EDGE_SEEDS)
def test_ids_and_draws_at_edge_seeds_and_offsets(seed: int, start: int, key: str | None) -> None:
    fast, reference = pair(seed, key, start)
    for _ in range(3):
        assert fast.rand_id() == reference.rand_id()
        assert fast.state.invocations == reference.invocations
        assert fast.random() == reference.random()


@given(seed=seeds, start=starts, key=keys)
def test_rand_id_is_the_spec_id(seed: int, start: int, key: str | None) -> None:
    fast, reference = pair(seed, key, start)
    assert [fast.rand_id() for _ in range(4)] == [reference.rand_id() for _ in range(4)]
    assert fast.state.invocations == reference.invocations == start + 4 * 35


@given(seed=seeds, start=starts, key=keys, maximum=st.integers(min_value=1, max_value=2**40))
def test_draws_and_integer_helpers_are_the_spec_stream(
    seed: int, start: int, key: str | None, maximum: int
) -> None:
    fast, reference = pair(seed, key, start)
    assert [fast.random() for _ in range(5)] == [reference.random() for _ in range(5)]
    for bound in (maximum, 2, 6, 52, 2**21, 2**21 + 1):
        assert fast.rand_int(bound) == int(reference.random() * bound)
    assert fast.rand_range(-3, 9) == int(reference.random() * 13) - 3
    assert fast.state.invocations == reference.invocations


@pytest.mark.parametrize("key", [None, KEY])
@pytest.mark.parametrize("size", [0, 1, 2, 3, 10, 52, 63, 64, 65, 66, 127, 128, 129, 130, 300])
def test_shuffle_is_the_spec_fisher_yates_across_lane_chunks(size: int, key: str | None) -> None:
    for seed, start in [(0, 0), (42, 7), (2**32 - 1, 2**32 - 20), (123456789, 10**9)]:
        fast, reference = pair(seed, key, start)
        items, expected = list(range(size)), list(range(size))
        fast.shuffle(items)
        reference.shuffle(expected)
        assert items == expected
        assert fast.state.invocations == reference.invocations == start + max(size - 1, 0)
        assert fast.random() == reference.random()


@given(seed=seeds, start=starts, size=st.integers(min_value=0, max_value=200))
def test_unkeyed_shuffle_is_the_spec_fisher_yates(seed: int, start: int, size: int) -> None:
    fast, reference = pair(seed, None, start)
    items, expected = list(range(size)), list(range(size))
    fast.shuffle(items)
    reference.shuffle(expected)
    assert items == expected


@given(value=st.integers(min_value=0, max_value=2**32 - 1), width=st.integers(min_value=1, max_value=2**21))
def test_the_integer_shuffle_step_is_the_float_one(value: int, width: int) -> None:
    # Up to 2**21 items the product v * width has at most 53 bits, so the float is exact.
    assert (value * width) >> 32 == int(value / 2**32 * width)


def test_a_shuffle_past_the_exact_limit_still_draws_the_spec_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(prng_module, "_EXACT_PRODUCT_LIMIT", 4)
    fast, reference = pair(42, None, 5)
    items, expected = list(range(40)), list(range(40))
    fast.shuffle(items)
    reference.shuffle(expected)
    assert items == expected


@pytest.mark.parametrize(
    "accepted_values",
    [56, 32, 8, 1],
    ids=lambda count: f"{count}-of-64-accepted",
)
@pytest.mark.parametrize("key", [None, KEY])
def test_ids_that_need_more_draws_and_more_batches(
    monkeypatch: pytest.MonkeyPatch, accepted_values: int, key: str | None
) -> None:
    # A real stream needs a second batch about once in 10**13 ids: reject most bytes instead, so
    # the spare lanes run short, a batch runs dry, and an id spans up to ~40 batches.
    def accepted(index: int) -> bool:
        return index < accepted_values

    rejects = bytes(byte for byte in range(256) if not accepted(byte & 63))
    monkeypatch.setattr(prng_module, "_ID_REJECTS", rejects)
    for seed, start in [(0, 0), (42, 35), (7, 2**32 - 3)]:
        fast, reference = pair(seed, key, start)
        for _ in range(3):
            assert fast.rand_id() == reference.rand_id(accepted)
            assert fast.state.invocations == reference.invocations
    assert reference.invocations > start + 3 * 35 or accepted_values == 56


@pytest.mark.parametrize("key", [None, KEY])
def test_a_draw_makes_the_state_model_copy_would(key: str | None) -> None:
    """A draw builds the next PrngState without validating: what ``model_copy(update=...)`` makes,
    with ``invocations`` marked set (as assigning it would)."""
    first = PrngState(seed=5, key=key)
    prng = Prng(first)
    for draw in (prng.random, prng.rand_id, lambda: prng.shuffle([1, 2, 3])):
        before = prng.state
        draw()
        made = prng.state
        slow = before.model_copy(update={"invocations": made.invocations})
        assert made is not before and type(made) is PrngState
        assert made.model_fields_set == {"seed", "key", "invocations"}
        assert made.model_dump_json() == slow.model_dump_json()
        assert made == slow == PrngState.model_validate_json(made.model_dump_json())
    assert first == PrngState(seed=5, key=key)  # the first value never changed
