"""A seeded, resumable PRNG whose whole state lives on the game state."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import MutableSequence, Sequence
from enum import Enum
from typing import Annotated, Final, Literal, Protocol, TypeVar

from pydantic import AfterValidator, BaseModel, Field, WithJsonSchema

from tabletop._model import Model, built, writes_directly
from tabletop._prng_batches import (
    GOLDEN,
    ID_BATCH,
    MASK32,
    MIN_LANES,
    TWO_53,
    keyed,
    keyed_prefix,
    keyed_top_bytes,
    mix,
    splitmix_outputs,
    splitmix_top_bytes,
)

__all__ = [
    "UNKEYED",
    "HasPrng",
    "Prng",
    "PrngKey",
    "PrngState",
    "Unkeyed",
    "check_prng_key",
    "new_prng_key",
]

T = TypeVar("T")

_TWO_32 = 4294967296.0
_ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_ID_LENGTH = 21
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


class PrngState(Model, frozen=True, revalidate_instances="subclass-instances"):
    """Where a game's random stream stands: its seed, optional secret key and draw count."""

    # The docstring above is the schema's description: what follows stays out of it.
    # Immutable: a draw makes a new one (see Prng), so copies of a state share it, never copy it.

    seed: int = Field(ge=0, le=MASK32)
    """The 32-bit unsigned seed the game started with."""
    invocations: int = Field(default=0, ge=0)
    """How many numbers have been drawn so far."""
    key: PrngKey | None = None
    """Host-only secret, 32 to 128 hex digits; None draws the reference splitmix32 stream.

    With a key, draw ``n`` (0-based) is keyed BLAKE2b of the seed and ``n``, so nobody without
    the key can brute-force the 32-bit seed from public outputs (ids, dealt cards). The key is
    serialized with the state (a host persists it); views never include ``prng``.
    """


class HasPrng(Protocol):
    """What holds a game's random stream: a ``prng`` attribute (a game state's field)."""

    prng: PrngState


_INVOCATIONS = frozenset({"invocations"})
_PRNG = "prng"


def _advanced(state: PrngState, invocations: int) -> PrngState:
    """``state`` with ``invocations`` draws made: what ``model_copy(update=...)`` gives, with
    ``invocations`` marked set (as assigning it would), built without validating again."""
    if type(state) is not PrngState:  # a subclass may validate more: through pydantic
        return state.model_validate({**state.__dict__, "invocations": invocations})
    values = state.__dict__
    fields = state.__pydantic_fields_set__
    # A frozen model's fields-set never changes (model_copy copies it): the next state may share it.
    return built(
        PrngState,
        {"seed": values["seed"], "invocations": invocations, "key": values["key"]},
        fields if "invocations" in fields else fields | _INVOCATIONS,
    )


class Prng:
    """splitmix32 over a :class:`PrngState`, bit-compatible with the reference JavaScript.

    A :class:`PrngState` is immutable: every draw makes the next one, which :attr:`state`
    returns. A PRNG built with :meth:`over` a game state keeps that state's ``prng`` field up to
    date instead (the engine's ``ctx.prng``), so randomness shows up in state diffs, and a PRNG
    built over a state resumes where the last one stopped in O(1).

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

    __slots__ = ("_fields", "_held", "_owner")

    def __init__(self, state: PrngState) -> None:
        self._held: dict[str, PrngState] = {_PRNG: state}
        """Where the stream's state is kept: this dict, or the owner's ``__dict__``."""
        self._fields: set[str] = set()
        """The owner's fields-set (a throwaway set without an owner)."""
        self._owner: HasPrng | None = None
        """An owner written through its ``__setattr__`` (one that validates assignments)."""

    @classmethod
    def over(cls, owner: HasPrng) -> Prng:
        """The PRNG of ``owner.prng`` (a game state's): it reads the stream from there and
        stores every advanced :class:`PrngState` back on ``owner``.

        Example:
            >>> from tabletop import Model
            >>> class Table(Model):
            ...     prng: PrngState
            >>> table = Table(prng=PrngState(seed=42))
            >>> Prng.over(table).rand_int(6), table.prng.invocations
            (0, 1)
        """
        prng = cls(owner.prng)
        if isinstance(owner, BaseModel) and writes_directly(type(owner)):
            # What pydantic's __setattr__ does, without its per-write dispatch (a test checks).
            prng._held = owner.__dict__
            prng._fields = owner.__pydantic_fields_set__
        else:
            prng._owner = owner
        return prng

    @property
    def state(self) -> PrngState:
        """Where the stream stands now (the owner's ``prng``, for a PRNG built :meth:`over` one)."""
        owner = self._owner
        return self._held[_PRNG] if owner is None else owner.prng

    def _load(self) -> PrngState:
        owner = self._owner
        return self._held[_PRNG] if owner is None else owner.prng

    def _store(self, state: PrngState, invocations: int) -> None:
        """Keep ``state`` advanced to ``invocations`` draws: here, or on the owner."""
        advanced = _advanced(state, invocations)
        owner = self._owner
        if owner is None:
            self._held[_PRNG] = advanced
            self._fields.add(_PRNG)
        else:
            owner.prng = advanced

    def random(self) -> float:
        """Return a float in [0, 1) and advance the stream by one draw."""
        owner = self._owner
        held = self._held
        state = held[_PRNG] if owner is None else owner.prng
        values = state.__dict__
        invocations: int = values["invocations"]
        seed: int = values["seed"]
        key = values["key"]
        if owner is None and type(state) is PrngState:  # _store, inlined (a hot path)
            fields = state.__pydantic_fields_set__
            held[_PRNG] = built(
                PrngState,
                {"seed": seed, "invocations": invocations + 1, "key": key},
                fields if "invocations" in fields else fields | _INVOCATIONS,
            )
            self._fields.add(_PRNG)
        else:
            self._store(state, invocations + 1)
        if key is None:  # splitmix32 of draw number invocations + 1 (1-based)
            t = (seed + (invocations + 1) * GOLDEN) & MASK32
            t ^= t >> 16
            t = (t * 0x21F0AAAD) & MASK32
            t ^= t >> 15
            t = (t * 0x735A2D97) & MASK32
            return (t ^ (t >> 15)) / _TWO_32
        return keyed(key, seed, invocations)

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
        state = self._load()
        values = state.__dict__
        seed, invocations, key = values["seed"], values["invocations"], values["key"]
        size = len(items)
        if size < 2:
            return
        if key is None and size <= MIN_LANES:  # a few draws: cheaper one by one
            invocation = invocations
            for i in range(size - 1, 0, -1):
                invocation += 1
                j = int(mix(seed, invocation) / _TWO_32 * (i + 1))
                items[i], items[j] = items[j], items[i]
        elif key is None:
            draws = splitmix_outputs(seed, invocations + 1, size - 1)
            if size <= _EXACT_PRODUCT_LIMIT:  # int(r * k) of r = v / 2**32 is (v * k) >> 32, exactly
                for i, v in zip(range(size - 1, 0, -1), draws, strict=True):
                    j = (v * (i + 1)) >> 32
                    items[i], items[j] = items[j], items[i]
            else:
                for i, v in zip(range(size - 1, 0, -1), draws, strict=True):
                    j = int(v / _TWO_32 * (i + 1))
                    items[i], items[j] = items[j], items[i]
        else:
            copy = keyed_prefix(key, seed).copy
            for i, n in zip(range(size - 1, 0, -1), range(invocations, invocations + size - 1), strict=True):
                hasher = copy()
                hasher.update(n.to_bytes(8, "big"))
                j = int((int.from_bytes(hasher.digest(), "big") >> 11) / TWO_53 * (i + 1))
                items[i], items[j] = items[j], items[i]
        self._store(state, invocations + size - 1)  # one write for the whole shuffle

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
        state = self._load()
        values = state.__dict__
        seed, invocations, key = values["seed"], values["invocations"], values["key"]
        chars = b""
        taken = ID_BATCH
        while len(chars) < _ID_LENGTH:
            if taken == ID_BATCH:  # open the next batch; its draws are read from the last down
                invocations += ID_BATCH
                taken = 0
            if key is None:  # spare lanes cost almost nothing and spare a second call
                count = min(_ID_LENGTH + _SPARE_LANES - len(chars), ID_BATCH - taken)
                drawn = splitmix_top_bytes(seed, invocations - taken, count)
            else:  # every keyed draw is one BLAKE2b: compute only the ones still missing
                count = min(_ID_LENGTH - len(chars), ID_BATCH - taken)
                drawn = keyed_top_bytes(key, seed, invocations - taken, count)
            taken += count
            chars += drawn.translate(_ID_BYTES, _ID_REJECTS)
        self._store(state, invocations)  # the stream advances by whole batches
        return chars[:_ID_LENGTH].decode("ascii")
