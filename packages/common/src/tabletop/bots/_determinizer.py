"""Determinization: a full state consistent with what one seat may see, for search with hidden information."""

from __future__ import annotations

import random
from typing import Protocol, TypeVar

from tabletop._machine import AnyState

__all__ = ["Determinizer", "identity_determinizer"]

StateT = TypeVar("StateT", bound=AnyState)


class Determinizer(Protocol[StateT]):
    """Samples a full state the bot's seat cannot tell apart from the one it sees.

    A game with hidden information supplies one (e.g. deal the unseen cards at random from
    what is left). It must draw its randomness only from ``rng`` (the bot's generator, never the
    state's PRNG) and must not mutate ``view``.
    """

    def __call__(self, view: StateT, seat: str, rng: random.Random) -> StateT:
        """Return a full state consistent with ``view``, the state as ``seat`` may see it."""
        ...


def identity_determinizer(view: StateT, seat: str, rng: random.Random) -> StateT:
    """The determinizer of a game without hidden information: the view is the state."""
    return view
