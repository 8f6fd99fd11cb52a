"""The PRNG's batched ``rand_id`` and ``shuffle`` draw exactly the stream ``random()`` would."""

from hypothesis import given
from hypothesis import strategies as st
from tabletop import Prng, PrngState
from tabletop_fixtures.prng_reference import reference_rand_id, reference_shuffle

seeds = st.integers(min_value=0, max_value=2**32 - 1)
starts = st.integers(min_value=0, max_value=10**9)


@given(seed=seeds, start=starts)
def test_rand_id_is_the_step_by_step_id(seed: int, start: int) -> None:
    fast, slow = Prng(PrngState(seed=seed, invocations=start)), Prng(PrngState(seed=seed, invocations=start))
    assert [fast.rand_id() for _ in range(3)] == [reference_rand_id(slow) for _ in range(3)]
    assert fast.state.invocations == slow.state.invocations
    assert (fast.state.invocations - start) % 35 == 0 and fast.state.invocations >= start + 3 * 35


@given(seed=seeds, start=starts, size=st.integers(min_value=0, max_value=60))
def test_shuffle_is_the_step_by_step_fisher_yates(seed: int, start: int, size: int) -> None:
    fast, slow = Prng(PrngState(seed=seed, invocations=start)), Prng(PrngState(seed=seed, invocations=start))
    items = list(range(size))
    fast.shuffle(items)
    assert items == reference_shuffle(slow, list(range(size)))
    assert fast.state.invocations == slow.state.invocations == start + max(size - 1, 0)
    assert fast.random() == slow.random()
