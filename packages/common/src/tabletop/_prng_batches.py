"""The PRNG's draws computed in batches: splitmix32 in big-int lanes, keyed BLAKE2b draws.

:class:`~tabletop.Prng` asks these for many draws at once (an id, a shuffle); each returns
exactly what drawing one number at a time would.
"""

from __future__ import annotations

import hashlib
import sys
from functools import lru_cache

__all__ = [
    "GOLDEN",
    "ID_BATCH",
    "MASK32",
    "MIN_LANES",
    "TWO_53",
    "keyed",
    "keyed_prefix",
    "keyed_top_bytes",
    "mix",
    "splitmix_outputs",
    "splitmix_top_bytes",
]

GOLDEN = 0x9E3779B9
"""splitmix32's increment per draw."""
MASK32 = 0xFFFFFFFF
TWO_53 = 9007199254740992.0
ID_BATCH = 35
"""The draws an id's batch takes."""

# splitmix32 of many draws at once, one draw per 64-bit lane of a Python int, in a dozen big-int
# operations instead of a dozen per draw: the products of 32-bit lanes by the 32-bit constants fit
# their lanes, and a mask after each right shift drops what it pulled in from the next lane, so
# each lane computes exactly what Prng.random's mix does for its draw.
_LANE_BITS = 64
_MAX_LANES = 64
MIN_LANES = 4
"""A shuffle of up to this many items mixes its draws one by one: a lane batch costs ~4 mixes."""


def _lane_constants(count: int, step: int) -> tuple[int, int, int]:
    """``(ones, ramp, masks)`` of ``count`` lanes: 1, ``lane * step`` and 2**32 - 1 in each lane."""
    ones = sum(1 << (_LANE_BITS * lane) for lane in range(count))
    ramp = sum((lane * step) << (_LANE_BITS * lane) for lane in range(count))
    return ones, ramp, ones * MASK32


_DOWN_LANES = tuple(_lane_constants(count, (1 << 32) - GOLDEN) for count in range(ID_BATCH + 1))
"""Lane constants for 0..35 draws numbered downwards (lane ``i`` is draw ``top - i``)."""
_UP_LANES = tuple(_lane_constants(count, GOLDEN) for count in range(_MAX_LANES + 1))
"""Lane constants for 0..64 draws numbered upwards (lane ``i`` is draw ``first + i``)."""


def splitmix_top_bytes(seed: int, top: int, count: int) -> bytes:
    """The top bytes of draws ``top``, ``top - 1``, ... (1-based), ``count`` of them."""
    ones, ramp, masks = _DOWN_LANES[count]
    x = (((seed + top * GOLDEN) & MASK32) * ones + ramp) & masks
    x = (x ^ (x >> 16)) & masks
    x = (x * 0x21F0AAAD) & masks
    x = (x ^ (x >> 15)) & masks
    # Byte 3 of a lane of x * 0x735A2D97 is bits 24..31 of the draw: the mix's last step,
    # t ^ (t >> 15), leaves those bits alone, and bits above 31 of the product are never read.
    return (x * 0x735A2D97).to_bytes(8 * count, "little")[3::8]


def mix(seed: int, invocation: int) -> int:
    """The 32-bit splitmix32 output of draw number ``invocation`` (1-based) of ``seed``'s stream."""
    t = (seed + invocation * GOLDEN) & MASK32
    t ^= t >> 16
    t = (t * 0x21F0AAAD) & MASK32
    t ^= t >> 15
    t = (t * 0x735A2D97) & MASK32
    return t ^ (t >> 15)


def splitmix_outputs(seed: int, first: int, count: int) -> list[int]:
    """The 32-bit outputs of draws ``first`` to ``first + count - 1`` (1-based), in order."""
    outputs: list[int] = []
    for start in range(first, first + count, _MAX_LANES):
        lanes = min(_MAX_LANES, first + count - start)
        ones, ramp, masks = _UP_LANES[lanes]
        x = (((seed + start * GOLDEN) & MASK32) * ones + ramp) & masks
        x = (x ^ (x >> 16)) & masks
        x = (x * 0x21F0AAAD) & masks
        x = (x ^ (x >> 15)) & masks
        x = (x * 0x735A2D97) & masks
        x = (x ^ (x >> 15)) & masks
        outputs += memoryview(x.to_bytes(8 * lanes, sys.byteorder)).cast("Q").tolist()
    return outputs


@lru_cache(maxsize=64)
def keyed_prefix(key: str, seed: int) -> hashlib.blake2b:
    """BLAKE2b keyed with ``key`` that has absorbed ``seed``: copied once per keyed draw."""
    hasher = hashlib.blake2b(key=bytes.fromhex(key), digest_size=8)
    hasher.update(seed.to_bytes(4, "big"))
    return hasher


def keyed(key: str, seed: int, invocation: int) -> float:
    """Keyed draw number ``invocation`` (0-based) of ``seed``'s stream: 53 bits in [0, 1)."""
    hasher = keyed_prefix(key, seed).copy()
    hasher.update(invocation.to_bytes(8, "big"))
    return (int.from_bytes(hasher.digest(), "big") >> 11) / TWO_53


def keyed_top_bytes(key: str, seed: int, top: int, count: int) -> bytes:
    """The top bytes of keyed draws ``top - 1``, ``top - 2``, ... (0-based), ``count`` of them.

    (Draw ``top - 1`` counted from 0 is draw ``top`` counted from 1, as in
    :func:`splitmix_top_bytes`.) The top byte of a draw is the first byte of its digest.
    """
    copy = keyed_prefix(key, seed).copy
    drawn = bytearray(count)
    for i, invocation in enumerate(range(top - 1, top - 1 - count, -1)):
        hasher = copy()
        hasher.update(invocation.to_bytes(8, "big"))
        drawn[i] = hasher.digest()[0]
    return bytes(drawn)
