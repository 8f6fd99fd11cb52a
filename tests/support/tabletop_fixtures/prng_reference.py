"""The PRNG helpers spelled out draw by draw, as the spec defines them, to check the fast paths."""

from tabletop import Prng

__all__ = ["ALPHABET", "reference_rand_id", "reference_shuffle"]

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
"""The 62 characters of a ``rand_id``."""


def reference_rand_id(prng: Prng) -> str:
    """21 characters from batches of 35 bytes, consumed last to first, skipping ``& 63 >= 62``."""
    chars: list[str] = []
    while True:
        batch = [int(prng.random() * 256) for _ in range(35)]
        for byte in reversed(batch):
            if (byte & 63) < len(ALPHABET):
                chars.append(ALPHABET[byte & 63])
                if len(chars) == 21:
                    return "".join(chars)


def reference_shuffle(prng: Prng, items: list[int]) -> list[int]:
    """Fisher-Yates from the last index down with ``j = floor(r * (i + 1))``, on a copy."""
    shuffled = list(items)
    for i in range(len(shuffled) - 1, 0, -1):
        j = int(prng.random() * (i + 1))
        shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
    return shuffled
