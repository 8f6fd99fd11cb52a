"""Determinization: a full state consistent with what one seat may see, for search with hidden information."""

from __future__ import annotations

import random

from pydantic import BaseModel

from tabletop._determinizer import Determinizer
from tabletop._machine import AnyState
from tabletop._state import GameState

__all__ = ["Determinizer", "identity_determinizer"]


def identity_determinizer(view: BaseModel, seat: str | None, rng: random.Random) -> AnyState:
    """The determinizer of a game without hidden information: the view is the state.

    Raises:
        TypeError: ``view`` is not a game state (a projected view of a game that hides
            something cannot be played on: that game needs a real determinizer).
    """
    if not isinstance(view, GameState):
        msg = f"{type(view).__name__} is a projected view, not a state: the game needs a determinizer"
        raise TypeError(msg)
    return view
