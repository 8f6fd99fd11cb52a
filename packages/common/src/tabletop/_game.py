"""Seats, games and per-game configuration."""

from __future__ import annotations

from enum import StrEnum
from typing import Generic, TypeVar

from pydantic import Field

from tabletop._model import Model

__all__ = ["Game", "GameConfig", "GameStatus", "Player"]


class GameConfig(Model):
    """Base class of a game's typed configuration; every option must have a default."""


ConfigT = TypeVar("ConfigT", bound=GameConfig)


class GameStatus(StrEnum):
    """Where a game stands in its life cycle."""

    WAITING = "waiting"
    IN_PROGRESS = "in_progress"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class Player(Model):
    """A seat at the table."""

    id: str = Field(min_length=1)
    """Stable id of the seat; player states and actions refer to it."""
    name: str
    """Display name."""
    is_human: bool = True
    """False for a bot seat."""


class Game(Model, Generic[ConfigT]):
    """One game being played: who sits where, which rules, which seed.

    This is what clients may see: it holds no secret. A game with hidden information or chance
    is keyed when it starts (``GameEngine.start(game, prng_key=...)``); the key then lives only
    in the state's host-only ``prng``. To read a stored game with its typed config, use
    ``definition.game_type`` (``Game[ThatGamesConfig]``).
    """

    id: str = Field(min_length=1)
    """Id of this game."""
    type_id: str = Field(min_length=1)
    """Name of the game definition (its entry-point name), e.g. ``"sample"``."""
    players: list[Player] = Field(min_length=1)
    """The seats, in seating order."""
    config: ConfigT
    """The game's typed configuration."""
    seed: int = Field(ge=0, le=0xFFFFFFFF)
    """32-bit unsigned seed of the game's PRNG."""
    status: GameStatus = GameStatus.WAITING
    """Life-cycle status, maintained by the host."""
