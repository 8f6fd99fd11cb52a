"""The base game state and player state."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Generic, TypeVar

from pydantic import Field

from tabletop._model import Model
from tabletop._prng import PrngState
from tabletop._visibility import HostOnly
from tabletop.components._turn_manager import TurnManager

__all__ = ["GameResult", "GameState", "PlayerState", "SimultaneousGroup"]


class GameResult(StrEnum):
    """How a finished game ended."""

    ABANDONED = "abandoned"
    DRAW = "draw"
    WIN = "win"


class PlayerState(Model):
    """What the game knows about one seat. Games subclass it to add their fields."""

    player_id: str
    """The seat's player id."""
    color: str | None = None
    """The player's colour, if the game assigns one."""


class SimultaneousGroup(Model):
    """A group of actions players take at the same time (a round of secret bids, say).

    A handler or action opens it with ``ctx.open_simultaneous_group()`` and closes it with
    ``ctx.close_simultaneous_group()``. While it is open, a user action is recorded with the
    group's id, and an action whose ``index`` lags behind the action count is still accepted if
    it names the group and its index is at least ``start_index``.
    """

    id: str
    """The group's id (PRNG-drawn when the group opened)."""
    start_index: int = Field(ge=0)
    """The action count when the group opened: the lowest index an action in the group may expect."""


PlayerStateT_co = TypeVar("PlayerStateT_co", bound=PlayerState, covariant=True)
MachineStateT_co = TypeVar("MachineStateT_co", bound=StrEnum, covariant=True)


class GameState(Model, Generic[PlayerStateT_co, MachineStateT_co]):
    """The whole state of a game. A game subclasses ``GameState[ItsPlayerState, ItsMachineState]``."""

    id: str
    """Id of this state snapshot's lineage (one per game start)."""
    game_id: str
    """Id of the game."""
    players: list[PlayerStateT_co]
    """One player state per seat, in seating order."""
    active_player_ids: list[str] = Field(default_factory=list)
    """Players who may act now."""
    action_count: int = Field(default=0, ge=0)
    """How many actions have been recorded."""
    action_checksum: int = 0
    """Running checksum of the recorded actions' ids and indexes (int32)."""
    prng: Annotated[PrngState, HostOnly()]
    """The PRNG's seed and draw count. Hidden from every player view."""
    machine_state: MachineStateT_co
    """The state machine's current state."""
    turn_manager: TurnManager = Field(default_factory=TurnManager)
    """Turn order and the current turn."""
    simultaneous_group: SimultaneousGroup | None = None
    """The group of simultaneous actions open now, if any."""
    result: GameResult | None = None
    """How the game ended, once it has."""
    winning_player_ids: list[str] = Field(default_factory=list)
    """The winners, once the game has ended."""

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self.result is not None

    def player(self, player_id: str) -> PlayerStateT_co:
        """Return the state of one player.

        Raises:
            KeyError: No player has that id.
        """
        for player in self.players:
            if player.player_id == player_id:
                return player
        msg = f"no player {player_id!r} in game {self.game_id!r}"
        raise KeyError(msg)

    def is_active(self, player_id: str) -> bool:
        """True if the player may act now."""
        return player_id in self.active_player_ids
