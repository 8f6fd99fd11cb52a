"""What every bot offers: choose an action for a seat, or none."""

from __future__ import annotations

import random
from math import floor
from typing import Protocol, TypeVar

from tabletop._action import GameAction
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction
from tabletop._model import writes_directly

__all__ = ["Bot", "give_id", "new_action_id"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

_ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


_ID_LENGTH = range(21)
_ID_SCALE = float(len(_ID_CHARS))


def new_action_id(rng: random.Random) -> str:
    """A fresh 21-character action id drawn from ``rng`` (a bot's generator, never the game's).

    The same characters as ``"".join(rng.choices(_ID_CHARS, k=21))``, from the same draws
    (one ``random()`` each), without ``choices``' generic set-up.
    """
    draw = rng.random
    return "".join([_ID_CHARS[floor(draw() * _ID_SCALE)] for _ in _ID_LENGTH])


_DIRECT: dict[type, bool] = {}
"""Per action class given an id: :func:`~tabletop._model.writes_directly` (a dict look-up is
cheaper than the cached call, once per simulated action)."""


def give_id(action: GameAction, action_id: str) -> None:
    """Set the id of ``action``, a fresh candidate the caller owns, in place.

    For a model with plain assignment this is the ``__dict__`` write (and the fields-set entry)
    pydantic's ``__setattr__`` would make, without its dispatch.
    """
    kind = type(action)
    direct = _DIRECT.get(kind)
    if direct is None:
        direct = _DIRECT[kind] = writes_directly(kind)
    if direct:
        action.__dict__["id"] = action_id
        action.__pydantic_fields_set__.add("id")
    else:
        action.id = action_id


class Bot(Protocol[StateT, ConfigT]):
    """A player that picks its own actions (:class:`RandomBot`, :class:`MctsBot`, ...)."""

    def choose(
        self, state: StateT, player_id: str, game: Game[ConfigT]
    ) -> HydratedAction[GameAction, StateT, ConfigT] | None:
        """A legal action for ``player_id`` with a fresh id, or None if they have none."""
        ...
