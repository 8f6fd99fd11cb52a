"""The determinizer protocol: a full state consistent with what one seat may see.

It lives outside :mod:`tabletop.bots` so that :class:`~tabletop.GameDefinition` can declare a
game's determinizer without importing the bots (which import the engine).
"""

from __future__ import annotations

import random
from typing import Protocol, TypeVar

from pydantic import BaseModel

from tabletop._machine import AnyState

__all__ = ["Determinizer"]

StateT_co = TypeVar("StateT_co", bound=AnyState, covariant=True)


class Determinizer(Protocol[StateT_co]):
    """Samples a full state the bot's seat cannot tell apart from the one it sees.

    A game with hidden information declares one (``GameDefinition(determinizer=...)``): given
    the seat's projected view (an instance of :func:`tabletop.views.view_type` of the game's
    state type, as :func:`tabletop.views.project` made it), it fills in every hidden value at
    random (e.g. deals the unseen cards from what is left, and gives the state a fresh PRNG
    seed). Projecting the result for ``seat`` must give ``view`` back exactly. It draws its
    randomness only from ``rng`` (the bot's generator), never mutates ``view``, and returns a
    state that shares no mutable part with ``view`` (the bot plays on it in place).
    :func:`tabletop.bots.fill_hidden` builds such a state by structural copy of the view, asking
    the determinizer only for the hidden values; draw those consistently with the game's chance
    points (e.g. unseen cards from exactly the cards a deal could have given the others).

    ``seat`` None means a spectator's view (``project(state, SPECTATOR)``): every hidden value
    is sampled, and projecting the result for a spectator must give ``view`` back. A host forks
    a hidden-information match for a spectator this way.

    For a game without hidden information of its own, the view is the state itself.
    """

    def __call__(self, view: BaseModel, seat: str | None, rng: random.Random) -> StateT_co:
        """Return a full (hydrated) state consistent with ``view``, what ``seat`` may see."""
        ...
