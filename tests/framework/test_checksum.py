"""The action checksum matches the reference implementation."""

import pytest
from tabletop._checksum import fnv1a52, next_checksum


@pytest.mark.parametrize(
    ("text", "expected"),
    [("action-1:0", 19978635299185), ("a1:0", 4233682384265081)],
)
def test_fnv1a52_known_answers(text: str, expected: int) -> None:
    assert fnv1a52(text) == expected


def test_checksum_chain_known_answers() -> None:
    first = next_checksum(0, "action-1", 0)
    assert first == -1552561807
    assert next_checksum(first, "action-2", 1) == 909972920


def test_fnv1a52_hashes_utf16_code_units() -> None:
    # An astral character is two UTF-16 code units; the hash must differ from any single unit.
    assert fnv1a52("🎲") != fnv1a52("\ud83c")
    assert 0 <= fnv1a52("🎲") < 2**52
    assert fnv1a52("é") != fnv1a52("e")


@pytest.mark.parametrize("checksum", [0, -1, 2**31 - 1, -(2**31)])
def test_checksum_stays_int32(checksum: int) -> None:
    value = next_checksum(checksum, "x" * 40, 123456)
    assert -(2**31) <= value < 2**31
