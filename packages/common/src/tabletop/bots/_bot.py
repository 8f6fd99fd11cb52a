"""What every bot offers: choose an action for a seat, or none."""

from __future__ import annotations

import random
from typing import Protocol, TypeVar

from tabletop._action import GameAction
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction

__all__ = ["Bot", "new_action_id"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

_ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def new_action_id(rng: random.Random) -> str:
    """A fresh 21-character action id drawn from ``rng`` (a bot's generator, never the game's)."""
    return "".join(rng.choices(_ID_CHARS, k=21))  # one call: ~6x cheaper than 21 choice() calls


class Bot(Protocol[StateT, ConfigT]):
    """A player that picks its own actions (:class:`RandomBot`, :class:`MctsBot`, ...)."""

    def choose(
        self, state: StateT, player_id: str, game: Game[ConfigT]
    ) -> HydratedAction[GameAction, StateT, ConfigT] | None:
        """A legal action for ``player_id`` with a fresh id, or None if they have none."""
        ...
