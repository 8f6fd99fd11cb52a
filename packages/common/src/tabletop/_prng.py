"""A seeded, resumable PRNG whose whole state lives on the game state."""

from __future__ import annotations

import hashlib
import secrets
import sys
from collections.abc import MutableSequence, Sequence
from enum import Enum
from functools import lru_cache
from typing import Annotated, Final, Literal, TypeVar

from pydantic import AfterValidator, Field, WithJsonSchema

from tabletop._model import Model

__all__ = ["UNKEYED", "Prng", "PrngKey", "PrngState", "Unkeyed", "check_prng_key", "new_prng_key"]

T = TypeVar("T")

_GOLDEN = 0x9E3779B9
_MASK32 = 0xFFFFFFFF
_TWO_32 = 4294967296.0
_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_ID_LENGTH = 21
_ID_BATCH = 35
_ALPHABET_SIZE = len(_ID_ALPHABET)
_ID_BYTES = bytes(ord(_ID_ALPHABET[byte & 63]) if byte & 63 < _ALPHABET_SIZE else 0 for byte in range(256))
"""``bytes.translate`` table: a drawn byte to the id character its low 6 bits index."""
_ID_REJECTS = bytes(byte for byte in range(256) if byte & 63 >= _ALPHABET_SIZE)
"""The drawn bytes an id skips: low 6 bits past the alphabet."""
_SPARE_LANES = 3
"""Unkeyed draws computed beyond the 21 an id needs at least: 24 draws suffice 99.4% of the time."""
_EXACT_PRODUCT_LIMIT = 1 << 21
"""Up to this many items, ``int(v / 2**32 * k)`` is exact, as ``(v * k) >> 32`` (53 bits)."""
_KEY_BYTES = 16
_MIN_KEY_DIGITS = 2 * _KEY_BYTES
_MAX_KEY_DIGITS = 2 * hashlib.blake2b.MAX_KEY_SIZE
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_TWO_53 = 9007199254740992.0


def check_prng_key(key: str) -> str:
    """Return ``key`` if it is a hex key of 128 to 512 bits.

    Raises:
        ValueError: It is not (the message never quotes the key).
    """
    if not _MIN_KEY_DIGITS <= len(key) <= _MAX_KEY_DIGITS or len(key) % 2 or not _HEX_DIGITS.issuperset(key):
        msg = (
            f"a PRNG key is an even number of {_MIN_KEY_DIGITS} to {_MAX_KEY_DIGITS} hex digits "
            f"(128 to 512 bits; make one with tabletop.new_prng_key()), got {len(key)} characters"
            + ("" if _HEX_DIGITS.issuperset(key) else " with non-hex ones")
        )
        raise ValueError(msg)
    return key


PrngKey = Annotated[
    str,
    AfterValidator(check_prng_key),
    WithJsonSchema(
        {
            "type": "string",
            "pattern": f"^(?:[0-9a-fA-F]{{2}}){{{_KEY_BYTES},{hashlib.blake2b.MAX_KEY_SIZE}}}$",
            "minLength": _MIN_KEY_DIGITS,
            "maxLength": _MAX_KEY_DIGITS,
        }
    ),
]
"""A secret PRNG key: an even number of 32 to 128 hex digits (128 to 512 bits)."""


class Unkeyed(Enum):
    """The type of :data:`UNKEYED`."""

    UNKEYED = "unkeyed"
    """Draw the reference splitmix32 stream from the seed alone."""


UNKEYED: Final[Literal[Unkeyed.UNKEYED]] = Unkeyed.UNKEYED
"""Start a game without a PRNG key, on purpose: ``engine.start(game, prng_key=UNKEYED)``.

Anybody who sees a few public values can recover a 32-bit seed by brute force and foresee every
later draw, so this is for reproducible fixtures (goldens, seeded tests, replays of unkeyed
games), never for a game with hidden information or chance that players play for real.
"""


def new_prng_key() -> str:
    """Return a fresh, cryptographically random 128-bit PRNG key as 32 hex digits.

    A host generates one per game, passes it to ``GameEngine.start(game, prng_key=key)``,
    stores it next to the match (never in anything a player receives) and passes it again to
    replay the match from its seed.

    Example:
        >>> len(new_prng_key())
        32
    """
    return secrets.token_hex(_KEY_BYTES)


class PrngState(Model):
    """Where a game's random stream stands: its seed, optional secret key and draw count."""

    seed: int = Field(ge=0, le=_MASK32)
    """The 32-bit unsigned seed the game started with."""
    invocations: int = Field(default=0, ge=0)
    """How many numbers have been drawn so far."""
    key: PrngKey | None = None
    """Host-only secret, 32 to 128 hex digits; None draws the reference splitmix32 stream.

    With a key, draw ``n`` (0-based) is keyed BLAKE2b of the seed and ``n``, so nobody without
    the key can brute-force the 32-bit seed from public outputs (ids, dealt cards). The key is
    serialized with the state (a host persists it); views never include ``prng``.
    """


class Prng:
    """splitmix32 over a :class:`PrngState`, bit-compatible with the reference JavaScript.

    Every draw increments ``state.invocations`` on the state object itself, so randomness shows
    up in state diffs, and a PRNG built over a state resumes where the last one stopped in O(1).

    With ``state.key`` set, draw ``n`` (0-based) is instead the 8-byte digest of
    ``blake2b(seed.to_bytes(4, "big") + n.to_bytes(8, "big"), key=bytes.fromhex(key),
    digest_size=8)`` read big-endian, shifted right by 11 and divided by 2**53: a float in
    [0, 1) with 53 bits that only the key holder can predict. Every helper draws from
    :meth:`random`'s stream, keyed or not.

    Example:
        >>> prng = Prng(PrngState(seed=42))
        >>> prng.random()
        0.12848330102860928
        >>> prng.state.invocations
        1
    """

    __slots__ = ("state",)

    def __init__(self, state: PrngState) -> None:
        self.state = state

    def random(self) -> float:
        """Return a float in [0, 1) and advance the stream by one draw."""
        state = self.state
        values = state.__dict__
        invocations: int = values["invocations"]
        values["invocations"] = invocations + 1  # what pydantic's __setattr__ does (a test checks)
        state.__pydantic_fields_set__.add("invocations")
        key = values["key"]
        if key is None:  # splitmix32 of draw number invocations + 1 (1-based)
            seed: int = values["seed"]
            t = (seed + (invocations + 1) * _GOLDEN) & _MASK32
            t ^= t >> 16
            t = (t * 0x21F0AAAD) & _MASK32
            t ^= t >> 15
            t = (t * 0x735A2D97) & _MASK32
            return (t ^ (t >> 15)) / _TWO_32
        return _keyed(key, values["seed"], invocations)

    def rand_int(self, maximum: int) -> int:
        """Return an integer in ``[0, maximum)``."""
        if maximum <= 0:
            msg = f"rand_int needs a positive maximum, got {maximum}"
            raise ValueError(msg)
        return int(self.random() * maximum)

    def rand_range(self, low: int, high: int) -> int:
        """Return an integer in ``[low, high]`` (both inclusive)."""
        if high < low:
            msg = f"rand_range needs low <= high, got {low} > {high}"
            raise ValueError(msg)
        return int(self.random() * (high - low + 1)) + low

    def die_roll(self, sides: int = 6) -> int:
        """Roll one die with ``sides`` faces numbered from 1."""
        return 1 + self.rand_int(sides)

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher–Yates from the last index down)."""
        state = self.state
        values = state.__dict__
        seed, invocations, key = values["seed"], values["invocations"], values["key"]
        size = len(items)
        if size < 2:
            return
        if key is None and size <= _MIN_LANES:  # a few draws: cheaper one by one
            invocation = invocations
            for i in range(size - 1, 0, -1):
                invocation += 1
                j = int(_mix(seed, invocation) / _TWO_32 * (i + 1))
                items[i], items[j] = items[j], items[i]
        elif key is None:
            draws = _splitmix_outputs(seed, invocations + 1, size - 1)
            if size <= _EXACT_PRODUCT_LIMIT:  # int(r * k) of r = v / 2**32 is (v * k) >> 32, exactly
                for i, v in zip(range(size - 1, 0, -1), draws, strict=True):
                    j = (v * (i + 1)) >> 32
                    items[i], items[j] = items[j], items[i]
            else:
                for i, v in zip(range(size - 1, 0, -1), draws, strict=True):
                    j = int(v / _TWO_32 * (i + 1))
                    items[i], items[j] = items[j], items[i]
        else:
            copy = _keyed_prefix(key, seed).copy
            for i, n in zip(range(size - 1, 0, -1), range(invocations, invocations + size - 1), strict=True):
                hasher = copy()
                hasher.update(n.to_bytes(8, "big"))
                j = int((int.from_bytes(hasher.digest(), "big") >> 11) / _TWO_53 * (i + 1))
                items[i], items[j] = items[j], items[i]
        values["invocations"] = invocations + size - 1  # one write for the whole shuffle
        state.__pydantic_fields_set__.add("invocations")

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Return a shuffled copy of ``items``."""
        result = list(items)
        self.shuffle(result)
        return result

    def pick_random(self, items: Sequence[T]) -> T:
        """Return one element of a non-empty sequence, chosen uniformly."""
        if not items:
            msg = "pick_random needs a non-empty sequence"
            raise ValueError(msg)
        return items[self.rand_int(len(items))]

    def rand_id(self) -> str:
        """Return a 21-character id over ``A-Z a-z 0-9``, drawn in batches of 35 bytes.

        Each byte is ``int(random() * 256)``, i.e. the top 8 bits of the mixed 32-bit value (of
        the 53-bit keyed value with a key); a batch is consumed last byte first, keeping bytes
        whose low 6 bits index the alphabet. The stream advances by whole batches, but only the
        draws the id reads are computed.
        """
        state = self.state
        values = state.__dict__
        seed, invocations, key = values["seed"], values["invocations"], values["key"]
        chars = b""
        taken = _ID_BATCH
        while len(chars) < _ID_LENGTH:
            if taken == _ID_BATCH:  # open the next batch; its draws are read from the last down
                invocations += _ID_BATCH
                taken = 0
            if key is None:  # spare lanes cost almost nothing and spare a second call
                count = min(_ID_LENGTH + _SPARE_LANES - len(chars), _ID_BATCH - taken)
                drawn = _splitmix_top_bytes(seed, invocations - taken, count)
            else:  # every keyed draw is one BLAKE2b: compute only the ones still missing
                count = min(_ID_LENGTH - len(chars), _ID_BATCH - taken)
                drawn = _keyed_top_bytes(key, seed, invocations - taken, count)
            taken += count
            chars += drawn.translate(_ID_BYTES, _ID_REJECTS)
        values["invocations"] = invocations  # the stream advances by whole batches
        state.__pydantic_fields_set__.add("invocations")
        return chars[:_ID_LENGTH].decode("ascii")


# splitmix32 of many draws at once, one draw per 64-bit lane of a Python int, in a dozen big-int
# operations instead of a dozen per draw: the products of 32-bit lanes by the 32-bit constants fit
# their lanes, and a mask after each right shift drops what it pulled in from the next lane, so
# each lane computes exactly what Prng.random's mix does for its draw.
_LANE_BITS = 64
_MAX_LANES = 64
_MIN_LANES = 4
"""A shuffle of up to this many items mixes its draws one by one: a lane batch costs ~4 mixes."""


def _lane_constants(count: int, step: int) -> tuple[int, int, int]:
    """``(ones, ramp, masks)`` of ``count`` lanes: 1, ``lane * step`` and 2**32 - 1 in each lane."""
    ones = sum(1 << (_LANE_BITS * lane) for lane in range(count))
    ramp = sum((lane * step) << (_LANE_BITS * lane) for lane in range(count))
    return ones, ramp, ones * _MASK32


_DOWN_LANES = tuple(_lane_constants(count, (1 << 32) - _GOLDEN) for count in range(_ID_BATCH + 1))
"""Lane constants for 0..35 draws numbered downwards (lane ``i`` is draw ``top - i``)."""
_UP_LANES = tuple(_lane_constants(count, _GOLDEN) for count in range(_MAX_LANES + 1))
"""Lane constants for 0..64 draws numbered upwards (lane ``i`` is draw ``first + i``)."""


def _splitmix_top_bytes(seed: int, top: int, count: int) -> bytes:
    """The top bytes of draws ``top``, ``top - 1``, ... (1-based), ``count`` of them."""
    ones, ramp, masks = _DOWN_LANES[count]
    x = (((seed + top * _GOLDEN) & _MASK32) * ones + ramp) & masks
    x = (x ^ (x >> 16)) & masks
    x = (x * 0x21F0AAAD) & masks
    x = (x ^ (x >> 15)) & masks
    # Byte 3 of a lane of x * 0x735A2D97 is bits 24..31 of the draw: the mix's last step,
    # t ^ (t >> 15), leaves those bits alone, and bits above 31 of the product are never read.
    return (x * 0x735A2D97).to_bytes(8 * count, "little")[3::8]


def _mix(seed: int, invocation: int) -> int:
    """The 32-bit splitmix32 output of draw number ``invocation`` (1-based) of ``seed``'s stream."""
    t = (seed + invocation * _GOLDEN) & _MASK32
    t ^= t >> 16
    t = (t * 0x21F0AAAD) & _MASK32
    t ^= t >> 15
    t = (t * 0x735A2D97) & _MASK32
    return t ^ (t >> 15)


def _splitmix_outputs(seed: int, first: int, count: int) -> list[int]:
    """The 32-bit outputs of draws ``first`` to ``first + count - 1`` (1-based), in order."""
    outputs: list[int] = []
    for start in range(first, first + count, _MAX_LANES):
        lanes = min(_MAX_LANES, first + count - start)
        ones, ramp, masks = _UP_LANES[lanes]
        x = (((seed + start * _GOLDEN) & _MASK32) * ones + ramp) & masks
        x = (x ^ (x >> 16)) & masks
        x = (x * 0x21F0AAAD) & masks
        x = (x ^ (x >> 15)) & masks
        x = (x * 0x735A2D97) & masks
        x = (x ^ (x >> 15)) & masks
        outputs += memoryview(x.to_bytes(8 * lanes, sys.byteorder)).cast("Q").tolist()
    return outputs


@lru_cache(maxsize=64)
def _keyed_prefix(key: str, seed: int) -> hashlib.blake2b:
    """BLAKE2b keyed with ``key`` that has absorbed ``seed``: copied once per keyed draw."""
    hasher = hashlib.blake2b(key=bytes.fromhex(key), digest_size=8)
    hasher.update(seed.to_bytes(4, "big"))
    return hasher


def _keyed(key: str, seed: int, invocation: int) -> float:
    """Keyed draw number ``invocation`` (0-based) of ``seed``'s stream: 53 bits in [0, 1)."""
    hasher = _keyed_prefix(key, seed).copy()
    hasher.update(invocation.to_bytes(8, "big"))
    return (int.from_bytes(hasher.digest(), "big") >> 11) / _TWO_53


def _keyed_top_bytes(key: str, seed: int, top: int, count: int) -> bytes:
    """The top bytes of keyed draws ``top - 1``, ``top - 2``, ... (0-based), ``count`` of them.

    (Draw ``top - 1`` counted from 0 is draw ``top`` counted from 1, as in
    :func:`_splitmix_top_bytes`.) The top byte of a draw is the first byte of its digest.
    """
    copy = _keyed_prefix(key, seed).copy
    drawn = bytearray(count)
    for i, invocation in enumerate(range(top - 1, top - 1 - count, -1)):
        hasher = copy()
        hasher.update(invocation.to_bytes(8, "big"))
        drawn[i] = hasher.digest()[0]
    return bytes(drawn)
