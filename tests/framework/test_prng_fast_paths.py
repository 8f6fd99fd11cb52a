"""The PRNG's batched ``rand_id`` and ``shuffle`` draw exactly the stream ``random()`` would."""

from hypothesis import given
from hypothesis import strategies as st
from tabletop import Prng, PrngState

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

seeds = st.integers(min_value=0, max_value=2**32 - 1)
starts = st.integers(min_value=0, max_value=10**9)


def reference_rand_id(prng: Prng) -> str:
    chars: list[str] = []
    while True:
        batch = [int(prng.random() * 256) for _ in range(35)]
        for byte in reversed(batch):
            if (byte & 63) < len(ALPHABET):
                chars.append(ALPHABET[byte & 63])
                if len(chars) == 21:
                    return "".join(chars)


@given(seed=seeds, start=starts)
def test_rand_id_is_the_step_by_step_id(seed: int, start: int) -> None:
    fast, slow = Prng(PrngState(seed=seed, invocations=start)), Prng(PrngState(seed=seed, invocations=start))
    assert [fast.rand_id() for _ in range(3)] == [reference_rand_id(slow) for _ in range(3)]
    assert fast.state.invocations == slow.state.invocations
    assert (fast.state.invocations - start) % 35 == 0 and fast.state.invocations >= start + 3 * 35


@given(seed=seeds, start=starts, size=st.integers(min_value=0, max_value=60))
def test_shuffle_is_the_step_by_step_fisher_yates(seed: int, start: int, size: int) -> None:
    fast, slow = Prng(PrngState(seed=seed, invocations=start)), Prng(PrngState(seed=seed, invocations=start))
    items, expected = list(range(size)), list(range(size))
    fast.shuffle(items)
    for i in range(size - 1, 0, -1):
        j = int(slow.random() * (i + 1))
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected
    assert fast.state.invocations == slow.state.invocations == start + max(size - 1, 0)
    assert fast.random() == slow.random()
