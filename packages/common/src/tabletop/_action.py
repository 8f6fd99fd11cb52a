"""The action envelope every game action refines."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import ClassVar

from pydantic import Field

from tabletop._model import Model

__all__ = ["ActionSource", "GameAction", "payload_fields"]


class ActionSource(StrEnum):
    """Who issued an action."""

    USER = "user"
    SYSTEM = "system"


class GameAction(Model):
    """The envelope of every action.

    A game refines it per action: ``type`` becomes a ``Literal`` of its ``ActionType`` member,
    ``player_id`` may become required, payload fields are added, and an optional ``metadata``
    model records what the action did.

    Class attributes:
        system_only: True for an action type only the game issues (``ctx.add_system_action``):
            the request schemas leave it out, and a client sending it gets ``system-only``.
        host_action: True for a system action the host records rather than the game's rules
            queue (the framework's :class:`tabletop.clocks.TimeExpired`): a replay submits it
            again with :meth:`tabletop.GameEngine.record`, where it submits a player's action
            with ``run``.
    """

    system_only: ClassVar[bool] = False
    host_action: ClassVar[bool] = False

    id: str
    """Unique id of the action (client-chosen for user actions, PRNG-drawn for system ones)."""
    game_id: str
    """Id of the game the action belongs to."""
    source: ActionSource = ActionSource.USER
    """Whether a player or the game itself issued the action."""
    type: str
    """The action type; each game narrows it to a literal tag."""
    player_id: str | None = None
    """The acting player's id, if a player acts."""
    index: int | None = Field(default=None, ge=0)
    """Position in the game's action log; set by the engine when the action is recorded."""
    simultaneous_group_id: str | None = None
    """Groups actions that players take at the same time."""
    reveals_info: bool | None = None
    """True when the action makes hidden information public."""
    created_at: datetime | None = None
    """When the host received the action."""


_ENVELOPE = frozenset(GameAction.model_fields) | {"metadata"}


def payload_fields(action_type: type[GameAction]) -> frozenset[str]:
    """The fields of an action type beyond the ``GameAction`` envelope and ``metadata``."""
    return frozenset(action_type.model_fields) - _ENVELOPE
