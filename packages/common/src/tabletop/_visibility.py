"""Visibility policies: who may see a model field, declared as ``Annotated`` metadata.

This module has no framework dependencies so that the base models (``GameState.prng``) can
declare their own visibility; :mod:`tabletop.views` re-exports everything public here and holds
the machinery that reads the declarations.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Final

from pydantic import BaseModel
from pydantic.fields import FieldInfo

__all__ = [
    "SPECTATOR",
    "CountOnly",
    "CustomVisibility",
    "HostOnly",
    "OrderOnly",
    "Owner",
    "OwnerOnly",
    "Perspective",
    "Public",
    "Spectator",
    "Viewer",
    "Visibility",
    "owner_marked",
    "policy_of",
]


class Spectator(Enum):
    """The perspective of someone watching the game without a seat (the type of :data:`SPECTATOR`)."""

    SPECTATOR = "spectator"


SPECTATOR: Final = Spectator.SPECTATOR
"""The spectator perspective: sees only what every player may see, and owns nothing."""

Perspective = str | Spectator
"""Whose view to build: a player id, or :data:`SPECTATOR`."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """What a :class:`CustomVisibility` policy knows when it decides.

    Attributes:
        perspective: The player id the view is for, or :data:`SPECTATOR`.
        owner: The player owning the field (the enclosing player state's, owner-marked model's or
            action's player id), or None where nobody owns it.
        holder: The model instance that holds the field.
        root: The state or action being projected.
    """

    perspective: Perspective
    owner: str | None
    holder: BaseModel
    root: BaseModel

    @property
    def is_owner(self) -> bool:
        """True if the perspective is a player who owns the field."""
        return self.owner is not None and self.perspective == self.owner


class Visibility:
    """Base of every visibility policy: put an instance in a field's ``Annotated`` metadata.

    Example:
        ``hand: Annotated[list[Card], OwnerOnly()] = Field(default_factory=list)``
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class Public(Visibility):
    """Everybody sees the field (the default; declaring it only documents the intent)."""

    __slots__ = ()


class OwnerOnly(Visibility):
    """Only the field's owner sees it; other players and spectators do not.

    The owner is the player of the enclosing player state (``player_id``), of the enclosing
    model marked with :class:`Owner`, or of the action (``player_id``) for action fields. A field
    nobody owns (directly on the game state) is hidden from everyone. In a player view the field
    is nullable and null when hidden; in a spectator view it is left out.
    """

    __slots__ = ()


class HostOnly(Visibility):
    """Nobody but the host sees the field: it is left out of every view."""

    __slots__ = ()


class CountOnly(Visibility):
    """Others see how many items the field holds, not which (lists, dicts, or sized models).

    Every view gets a ``<name>_count`` integer field. The owner (as for :class:`OwnerOnly`)
    also sees the items themselves: in a player view ``<name>`` stays, nullable and null unless
    the viewer owns it; where nobody can own it (a field on the game state, a spectator view)
    ``<name>`` is left out.
    """

    __slots__ = ()


class OrderOnly(Visibility):
    """Others see a list's length and positions but not its items: each item becomes null.

    Only for ``list`` fields. The owner (as for :class:`OwnerOnly`) sees the items; in the view
    type the items are nullable.
    """

    __slots__ = ()


class CustomVisibility(Visibility):
    """A game's own rule: subclass it and implement :meth:`visible_to`.

    In every view the field is nullable, and null where :meth:`visible_to` says no.

    Example:
        >>> class AfterTheGame(CustomVisibility):
        ...     def visible_to(self, viewer: Viewer) -> bool:
        ...         return viewer.is_owner or getattr(viewer.root, "result", None) is not None
    """

    __slots__ = ()

    def visible_to(self, viewer: Viewer) -> bool:
        """Return True if ``viewer.perspective`` may see the field's value."""
        raise NotImplementedError


class Owner:
    """Marks the field naming the player who owns the enclosing model (``str | None``).

    Player states (``player_id``) and actions (``player_id``) own their fields without it; use it
    on other models, e.g. ``participant_id: Annotated[str, Owner()]`` on a sealed bid, so that
    its :class:`OwnerOnly` fields are visible to that participant.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return "Owner()"


def policy_of(field: FieldInfo) -> Visibility | None:
    """The visibility policy declared in a field's metadata (None: public by default).

    A policy class given instead of an instance (``Annotated[int, HostOnly]``) counts too.

    Raises:
        TypeError: The field declares several policies.
    """
    found: list[Visibility] = []
    for item in field.metadata:
        if isinstance(item, Visibility):
            found.append(item)
        elif isinstance(item, type) and issubclass(item, Visibility) and item is not CustomVisibility:
            found.append(item())
    if len(found) > 1:
        msg = f"a field declares several visibility policies: {found}"
        raise TypeError(msg)
    return found[0] if found else None


def owner_marked(field: FieldInfo) -> bool:
    """True if the field is marked with :class:`Owner`."""
    return any(isinstance(item, Owner) or item is Owner for item in field.metadata)
