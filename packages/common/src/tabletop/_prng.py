"""A seeded, resumable PRNG whose whole state lives on the game state."""

from __future__ import annotations

import hashlib
import secrets
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
        invocations = state.invocations
        state.invocations = invocations + 1
        key = state.key
        if key is None:
            return _mix(state.seed, invocations + 1) / _TWO_32
        return _keyed(key, state.seed, invocations)

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
        seed, invocations, key = state.seed, state.invocations, state.key
        if key is None:
            for i in range(len(items) - 1, 0, -1):
                invocations += 1
                j = int(_mix(seed, invocations) / _TWO_32 * (i + 1))
                items[i], items[j] = items[j], items[i]
        else:
            for i in range(len(items) - 1, 0, -1):
                j = int(_keyed(key, seed, invocations) * (i + 1))
                invocations += 1
                items[i], items[j] = items[j], items[i]
        state.invocations = invocations  # one write for the whole shuffle: the same stream, faster

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
        whose low 6 bits index the alphabet.
        """
        state = self.state
        seed, invocations, key = state.seed, state.invocations, state.key
        if key is None:
            return self._unkeyed_id(seed, invocations)
        chars: list[str] = []
        while True:  # int(random() * 256) of a 53-bit draw is its top 8 bits, exactly
            batch = [int(_keyed(key, seed, invocations + n) * 256) for n in range(_ID_BATCH)]
            invocations += _ID_BATCH
            for byte in reversed(batch):
                index = byte & 63
                if index < _ALPHABET_SIZE:
                    chars.append(_ID_ALPHABET[index])
                    if len(chars) == _ID_LENGTH:
                        state.invocations = invocations
                        return "".join(chars)

    def _unkeyed_id(self, seed: int, invocations: int) -> str:
        """:meth:`rand_id` of the reference stream: each batch mixed from its last draw down,
        only as far as the id needs (the stream still advances a whole batch)."""
        chars: list[str] = []
        alphabet = _ID_ALPHABET
        while True:
            for invocation in range(invocations + _ID_BATCH, invocations, -1):
                t = (seed + invocation * _GOLDEN) & _MASK32
                t ^= t >> 16
                t = (t * 0x21F0AAAD) & _MASK32
                t ^= t >> 15
                t = (t * 0x735A2D97) & _MASK32
                index = ((t ^ (t >> 15)) >> 24) & 63
                if index < _ALPHABET_SIZE:
                    chars.append(alphabet[index])
                    if len(chars) == _ID_LENGTH:
                        self.state.invocations = invocations + _ID_BATCH
                        return "".join(chars)
            invocations += _ID_BATCH


def _mix(seed: int, invocation: int) -> int:
    """The 32-bit splitmix32 output of draw number ``invocation`` (1-based) of ``seed``'s stream."""
    t = (seed + invocation * _GOLDEN) & _MASK32
    t ^= t >> 16
    t = (t * 0x21F0AAAD) & _MASK32
    t ^= t >> 15
    t = (t * 0x735A2D97) & _MASK32
    return t ^ (t >> 15)


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
