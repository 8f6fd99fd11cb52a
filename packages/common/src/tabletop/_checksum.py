"""The action checksum: a running XOR of FNV-1a hashes of ``"{id}:{index}"``.

An FNV-1a step is ``h = ((h ^ c) * P) mod 2**64``. For ASCII text this module takes it without a
64-bit multiplication per character. Split ``h = g + l`` with ``l = h & 127``: for a unit
``c < 128``, ``h ^ c = g + m`` with ``m = l ^ c``, so the next hash is ``(g * P + m * P) mod 2**64``.
``g * P`` is a multiple of 128, so the new low 7 bits are ``(m * P) & 127``, a function of ``m``
alone, and the next unit's ``m`` is ``((m * P) & 127) ^ c``: a 7-bit chain of table lookups.
Unrolled over ``n`` units the rest is a sum of table entries:

    h_n = g_0 * P**n + sum_k ((m_k * P) & ~127) * P**(n - k) + (m_n * P) & 127   (mod 2**64)

so one lookup in a 128-entry table per position and one addition per character. The tests
check it against the step-by-step definition.
"""

from __future__ import annotations

__all__ = ["fnv1a52", "next_checksum", "remember_id"]

_OFFSET = 0xCBF29CE484222325
_PRIME = 0x100000001B3
_MASK64 = 0xFFFFFFFFFFFFFFFF
_MIDDLE_BITS = 0x000FFFFFFFFF0000
_SIGN32 = 0x80000000
_MASK32 = 0xFFFFFFFF
_MAX_TABLED = 48
"""Texts up to this many characters take the tables: a 21-character id or a UUID with its index."""

_LOW = [(m * _PRIME) & 127 for m in range(128)]
"""The low 7 bits of ``m * P``: the next ``l`` after a unit that left ``m = l ^ c``."""


def _term_tables(count: int) -> list[list[int]]:
    """``[e][m]``: what a unit that left ``m`` adds to the hash ``e`` units before the end.

    ``e = 0`` (the last unit) adds all of ``m * P``; earlier units add its high part times ``P**e``.
    """
    last = [(m * _PRIME) & _MASK64 for m in range(128)]
    tables = [last]
    terms = [product & ~127 for product in last]
    for _ in range(1, count):
        terms = [(term * _PRIME) & _MASK64 for term in terms]
        tables.append(terms)
    return tables


_TERMS = _term_tables(_MAX_TABLED)
_WEIGHTS = [tuple(reversed(_TERMS[:length])) for length in range(_MAX_TABLED + 1)]
"""The term tables of a text of each length, first unit first."""
_BASES = [((_OFFSET & ~127) * pow(_PRIME, length, 1 << 64)) & _MASK64 for length in range(_MAX_TABLED + 1)]
"""``g_0 * P**n`` of the offset basis, for each length ``n``."""
_FIRST_M = _LOW.index(_OFFSET & 127)
"""The ``m`` whose low bits are the offset basis's: the chain's start, before the first unit."""


def _fnv1a64(text: str) -> int:
    """64-bit FNV-1a over the UTF-16 code units of ``text``."""
    try:
        data = text.encode("ascii")
    except UnicodeEncodeError:
        raw = text.encode("utf-16-le", "surrogatepass")  # JS strings may hold lone surrogates
        return _fnv1a64_units([raw[i] | (raw[i + 1] << 8) for i in range(0, len(raw), 2)])
    length = len(data)
    if not 0 < length <= _MAX_TABLED:
        return _fnv1a64_units(data)
    low = _LOW
    m = _FIRST_M
    h = _BASES[length]
    for unit, terms in zip(data, _WEIGHTS[length], strict=True):
        m = low[m] ^ unit
        h += terms[m]
    return h & _MASK64


def _fnv1a64_units(units: bytes | list[int], h: int = _OFFSET) -> int:
    """64-bit FNV-1a over ``units`` from the hash ``h``, one multiplication each (any unit, any length)."""
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


_REMEMBERED: dict[str, int] = {}
"""The hash of ``"{id}:"`` for each id given to :func:`remember_id`."""


def remember_id(action_id: str) -> None:
    """Hash ``"{action_id}:"`` once, for an id many recorded actions carry (a search's own id).

    :func:`next_checksum` then hashes only the index after it: the same result, for a handful of
    units instead of the whole text. Ids that every action has to itself gain nothing from it.
    """
    raw = f"{action_id}:".encode("utf-16-le", "surrogatepass")
    _REMEMBERED[action_id] = _fnv1a64_units([raw[i] | (raw[i + 1] << 8) for i in range(0, len(raw), 2)])


def next_checksum(checksum: int, action_id: str, index: int) -> int:
    """Fold one recorded action into the running checksum (an int32).

    Equal to ``int32(int32(checksum) ^ int32(fnv1a52(f"{action_id}:{index}")))``: only the low
    32 bits of each operand reach the result, and those of ``fnv1a52`` are ``h ^ (h >> 52)``.
    """
    prefix = _REMEMBERED.get(action_id)
    h = _fnv1a64(f"{action_id}:{index}") if prefix is None else _fnv1a64_units(b"%d" % index, prefix)
    return ((checksum ^ h ^ (h >> 52) ^ _SIGN32) & _MASK32) - _SIGN32
