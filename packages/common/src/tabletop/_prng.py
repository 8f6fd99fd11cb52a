"""A seeded, resumable PRNG whose whole state lives on the game state."""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

from pydantic import Field

from tabletop._model import Model

__all__ = ["Prng", "PrngState"]

T = TypeVar("T")

_GOLDEN = 0x9E3779B9
_MASK32 = 0xFFFFFFFF
_TWO_32 = 4294967296.0
_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_ID_LENGTH = 21
_ID_BATCH = 35
_ALPHABET_SIZE = len(_ID_ALPHABET)


class PrngState(Model):
    """Where a game's random stream stands: its seed and how many numbers were drawn."""

    seed: int = Field(ge=0, le=_MASK32)
    """The 32-bit unsigned seed the game started with."""
    invocations: int = Field(default=0, ge=0)
    """How many numbers have been drawn so far."""


class Prng:
    """splitmix32 over a :class:`PrngState`, bit-compatible with the reference JavaScript.

    Every draw increments ``state.invocations`` on the state object itself, so randomness shows
    up in state diffs, and a PRNG built over a state resumes where the last one stopped in O(1).

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
        invocations = state.invocations + 1
        state.invocations = invocations
        return _mix(state.seed, invocations) / _TWO_32

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
        seed, invocations = state.seed, state.invocations
        for i in range(len(items) - 1, 0, -1):
            invocations += 1
            j = int(_mix(seed, invocations) / _TWO_32 * (i + 1))
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

        Each byte is ``int(random() * 256)``, i.e. the top 8 bits of the mixed 32-bit value; a
        batch is consumed last byte first, keeping bytes whose low 6 bits index the alphabet.
        """
        state = self.state
        seed, invocations = state.seed, state.invocations
        chars: list[str] = []
        while True:
            batch = [_mix(seed, invocations + n) >> 24 for n in range(1, _ID_BATCH + 1)]
            invocations += _ID_BATCH
            for byte in reversed(batch):
                index = byte & 63
                if index < _ALPHABET_SIZE:
                    chars.append(_ID_ALPHABET[index])
                    if len(chars) == _ID_LENGTH:
                        state.invocations = invocations
                        return "".join(chars)


def _mix(seed: int, invocation: int) -> int:
    """The 32-bit splitmix32 output of draw number ``invocation`` (1-based) of ``seed``'s stream."""
    t = (seed + invocation * _GOLDEN) & _MASK32
    t ^= t >> 16
    t = (t * 0x21F0AAAD) & _MASK32
    t ^= t >> 15
    t = (t * 0x735A2D97) & _MASK32
    return t ^ (t >> 15)
