"""Seats, games and per-game configuration."""

from __future__ import annotations

from enum import StrEnum
from typing import Generic, TypeVar

from pydantic import Field

from tabletop._model import Model
from tabletop._prng import PrngKey

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
    """One game being played: who sits where, which rules, which seed."""

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
    prng_key: PrngKey | None = None
    """Host-only secret keying the PRNG (32 to 128 hex digits, e.g. ``tabletop.new_prng_key()``).

    A 32-bit seed can be brute-forced from public outputs (state and action ids, a player's own
    cards), so a host of a game with hidden information generates a key per game and never sends
    it to players. None draws the reference splitmix32 stream from the seed alone.
    """
    status: GameStatus = GameStatus.WAITING
    """Life-cycle status, maintained by the host."""
