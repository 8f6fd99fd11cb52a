"""The table-driven FNV-1a equals the one-multiplication-per-unit definition on every input."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tabletop import _checksum as checksum_module
from tabletop._checksum import fnv1a52, next_checksum, remember_id

OFFSET, PRIME, MASK64 = 0xCBF29CE484222325, 0x100000001B3, 2**64 - 1
TABLED = checksum_module._MAX_TABLED


def reference_fnv1a64(text: str) -> int:
    """FNV-1a over the UTF-16 code units, one step per unit, as the spec defines it."""
    raw = text.encode("utf-16-le", "surrogatepass")
    h = OFFSET
    for i in range(0, len(raw), 2):
        h = ((h ^ (raw[i] | (raw[i + 1] << 8))) * PRIME) % 2**64
    return h


def reference_next_checksum(checksum: int, action_id: str, index: int) -> int:
    h = reference_fnv1a64(f"{action_id}:{index}")
    folded = (h & 0x000FFFFFFFFF0000) | ((h & 0xFFFF) ^ (h >> 52))
    value = ((checksum % 2**32) ^ (folded % 2**32)) % 2**32
    return value - 2**32 if value >= 2**31 else value


def test_one_ascii_step_splits_into_a_7_bit_chain_and_a_table_term() -> None:
    # The identity the tables rest on, for every low-7-bit state and every ASCII unit, over
    # random high bits: the next low bits depend on m = l ^ c only, and the high part moves by
    # (h & ~127) * P plus a term of m alone.
    rng = random.Random(15)
    for low in range(128):
        for unit in range(128):
            h = (rng.getrandbits(57) << 7) | low
            after = ((h ^ unit) * PRIME) & MASK64
            m = low ^ unit
            assert after & 127 == checksum_module._LOW[m]
            assert after == (((h & ~127) * PRIME) + checksum_module._TERMS[0][m]) & MASK64


def test_every_ascii_text_of_up_to_two_units_hashes_as_defined() -> None:
    texts = [""] + [chr(a) for a in range(128)] + [chr(a) + chr(b) for a in range(128) for b in range(128)]
    for text in texts:
        assert checksum_module._fnv1a64(text) == reference_fnv1a64(text), repr(text)


@pytest.mark.parametrize("length", [*range(TABLED + 3), 64, 200])
def test_ascii_texts_of_every_tabled_length_and_past_it(length: int) -> None:
    rng = random.Random(length)
    for _ in range(200):
        text = "".join(chr(rng.randrange(128)) for _ in range(length))
        assert checksum_module._fnv1a64(text) == reference_fnv1a64(text), repr(text)
        h = reference_fnv1a64(text)
        assert fnv1a52(text) == (h & 0x000FFFFFFFFF0000) | ((h & 0xFFFF) ^ (h >> 52))


@given(st.text(), st.integers(-(2**31), 2**31 - 1), st.integers(0, 10**12))
def test_next_checksum_is_the_definition_on_any_text(action_id: str, checksum: int, index: int) -> None:
    assert checksum_module._fnv1a64(action_id) == reference_fnv1a64(action_id)
    assert next_checksum(checksum, action_id, index) == reference_next_checksum(checksum, action_id, index)


@given(
    st.text(alphabet=st.characters(max_codepoint=127), max_size=TABLED + 8),
    st.integers(-(2**31), 2**31 - 1),
    st.integers(0, 10**12),
)
def test_next_checksum_is_the_definition_on_ascii_ids(action_id: str, checksum: int, index: int) -> None:
    assert next_checksum(checksum, action_id, index) == reference_next_checksum(checksum, action_id, index)


@pytest.mark.parametrize("text", ["é", "🎲", "\ud83c", "a\uffffb", "id-中:3", "x" * 30 + "é"])
def test_non_ascii_texts_take_the_unit_loop(text: str) -> None:
    assert checksum_module._fnv1a64(text) == reference_fnv1a64(text)


@pytest.mark.parametrize("action_id", ["a-search-id", "ünïcödé-id", "x" * 60, ""])
def test_a_remembered_id_hashes_as_defined(action_id: str) -> None:
    remember_id(action_id)
    rng = random.Random(action_id)
    for index in [0, 1, 9, 10, 99, 12345, 2**40, *(rng.randrange(10**6) for _ in range(50))]:
        checksum = rng.randrange(-(2**31), 2**31)
        assert next_checksum(checksum, action_id, index) == reference_next_checksum(
            checksum, action_id, index
        )
