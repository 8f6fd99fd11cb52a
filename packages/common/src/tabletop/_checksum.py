"""The action checksum: a running XOR of FNV-1a hashes of ``"{id}:{index}"``."""

from __future__ import annotations

__all__ = ["fnv1a52", "next_checksum"]

_OFFSET = 0xCBF29CE484222325
_PRIME = 0x100000001B3
_MASK64 = 0xFFFFFFFFFFFFFFFF
_MIDDLE_BITS = 0x000FFFFFFFFF0000


def _fnv1a64(text: str) -> int:
    """64-bit FNV-1a over the UTF-16 code units of ``text``."""
    h = _OFFSET
    if text.isascii():
        units: bytes | list[int] = text.encode("ascii")
    else:
        raw = text.encode("utf-16-le", "surrogatepass")  # JS strings may hold lone surrogates
        units = [raw[i] | (raw[i + 1] << 8) for i in range(0, len(raw), 2)]
    prime = _PRIME
    mask = _MASK64
    # Masking after every step keeps ``h`` at 64 bits: an unmasked ``h`` grows by 40 bits a unit,
    # and multiplying the long integer costs more than the mask (fewer instructions, callgrind).
    for unit in units:
        h = ((h ^ unit) * prime) & mask
    return h


def fnv1a52(text: str) -> int:
    """64-bit FNV-1a over UTF-16 code units, folded to 52 bits (safe as a JavaScript number)."""
    h = _fnv1a64(text)
    return (h & _MIDDLE_BITS) | ((h & 0xFFFF) ^ (h >> 52))  # bits 16..51 kept; the top 12 fold in


def next_checksum(checksum: int, action_id: str, index: int) -> int:
    """Fold one recorded action into the running checksum (an int32).

    Equal to ``int32(int32(checksum) ^ int32(fnv1a52(f"{action_id}:{index}")))``: only the low
    32 bits of each operand reach the result, so the fold keeps just those.
    """
    h = _fnv1a64(f"{action_id}:{index}")
    value = (checksum ^ (h & 0xFFFF0000) ^ (h & 0xFFFF) ^ (h >> 52)) & 0xFFFFFFFF
    return value - 0x100000000 if value & 0x80000000 else value
