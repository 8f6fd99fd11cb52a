"""Finding installed games through the ``tabletop.games`` entry-point group.

A game package registers its definition in its ``pyproject.toml``::

    [project.entry-points."tabletop.games"]
    sample = "tabletop_sample:definition"
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from tabletop._definition import GameDefinition
from tabletop._errors import TabletopError
from tabletop._game import GameConfig
from tabletop._machine import AnyState

__all__ = ["ENTRY_POINT_GROUP", "UnknownGameError", "available", "load", "load_all"]

ENTRY_POINT_GROUP = "tabletop.games"
"""The entry-point group games register under."""


class UnknownGameError(TabletopError, LookupError):
    """No installed game has that name."""


def available() -> list[str]:
    """Names of every installed game, sorted."""
    return sorted({ep.name for ep in entry_points(group=ENTRY_POINT_GROUP)})


@cache
def load(name: str) -> GameDefinition[AnyState, GameConfig]:
    """Load the definition an installed game registers under ``name``.

    Raises:
        UnknownGameError: No installed game has that name.
        TypeError: The entry point does not name a :class:`GameDefinition`.
    """
    matches = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]
    if not matches:
        msg = f"no installed game named {name!r}; installed: {', '.join(available()) or 'none'}"
        raise UnknownGameError(msg)
    definition = matches[0].load()
    if not isinstance(definition, GameDefinition):
        kind = type(definition).__name__
        msg = f"entry point {matches[0].value!r} is a {kind}, not a GameDefinition"
        raise TypeError(msg)
    return definition


def load_all() -> dict[str, GameDefinition[AnyState, GameConfig]]:
    """Every installed game's definition, by name."""
    return {name: load(name) for name in available()}
