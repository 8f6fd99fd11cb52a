"""Hydrated views: a view type with the behaviour of the state's hydrated classes, for UI helpers."""

from __future__ import annotations

import functools
import types
from collections.abc import Sequence
from typing import cast

from pydantic import BaseModel

from tabletop._hydration import Hydrated, hydrated_type_of
from tabletop._machine import AnyState
from tabletop._model import Model
from tabletop._state import GameState
from tabletop.views._analysis import models_in
from tabletop.views._derive import source_of
from tabletop.views._projection import view_type

__all__ = ["HydratedStateView", "hydrated_view_type"]

_BEHAVIOUR = (types.FunctionType, property, classmethod, staticmethod, functools.cached_property)
_BASE_MODULES = frozenset({"tabletop._state", "tabletop._model", "tabletop._action"})
_HYDRATED: dict[type[BaseModel], type[BaseModel]] = {}


class HydratedStateView(Model, Hydrated[Model]):
    """Base of every hydrated state view: the game state's own queries over public fields.

    The class :func:`hydrated_view_type` returns subclasses it together with the view type and
    carries the game's behaviour over (call those methods untyped, e.g. through ``getattr``).
    """

    __plain_model__ = Model  # a base for hydrated views, not the hydrated form of Model itself

    def player(self, player_id: str) -> Model:
        """Return the view of one player's state.

        Raises:
            KeyError: No player has that id.
        """
        players: Sequence[Model] = getattr(self, "players")  # noqa: B009 - declared by the view type
        for player in players:
            if getattr(player, "player_id", None) == player_id:
                return player
        msg = f"no player {player_id!r} in this view"
        raise KeyError(msg)

    def is_active(self, player_id: str) -> bool:
        """True if the player may act now."""
        active: Sequence[str] = getattr(self, "active_player_ids")  # noqa: B009
        return player_id in active

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return getattr(self, "result") is not None  # noqa: B009


def hydrated_view_type(state_type: type[AnyState], *, spectator: bool = False) -> type[HydratedStateView]:
    """The hydrated class of :func:`view_type`: the view's fields with the state's behaviour.

    The methods and properties a game defines on its state and player-state classes (plain and
    hydrated) are carried over, as are the state's ``player()``, ``is_active()`` and ``is_over``;
    nested views are hydrated too, and models that hide nothing get their usual hydrated classes.
    Only behaviour that reads visible fields works: one reading a hidden field fails with
    ``AttributeError`` (left out) or sees null. ``hydrate()`` and ``dehydrate()`` work as usual.

    Example:
        ``hydrated_view_type(State).hydrate(project(state, "p1")).leaders()``
    """
    return cast(type[HydratedStateView], _hydrated(view_type(state_type, spectator=spectator)))


def _hydrated(view: type[BaseModel]) -> type[BaseModel]:
    if view in _HYDRATED:
        return _HYDRATED[view]
    for field in view.model_fields.values():
        for nested in models_in(field.annotation):
            if source_of(nested) is not None:
                _hydrated(nested)
    source = source_of(view)
    assert source is not None
    behaviour = hydrated_type_of(source) or source
    namespace: dict[str, object] = {}
    for cls in reversed(behaviour.__mro__):
        if not issubclass(cls, BaseModel) or cls.__module__ in _BASE_MODULES or cls is BaseModel:
            continue  # the base models' behaviour is on HydratedStateView, or reads hidden fields
        for name, member in vars(cls).items():
            if isinstance(member, _BEHAVIOUR) and not name.startswith("__") and name not in view.model_fields:
                namespace[name] = member
    namespace["__module__"] = view.__module__
    namespace["__doc__"] = (
        f"{view.__name__} with the behaviour of {behaviour.__name__} (visible fields only)."
    )
    bases: tuple[type, ...] = (view, Hydrated[view])  # type: ignore[valid-type]
    if issubclass(source, GameState):
        bases = (view, HydratedStateView)
    hydrated = types.new_class(f"Hydrated{view.__name__}", bases, exec_body=lambda ns: ns.update(namespace))
    _HYDRATED[view] = hydrated
    return hydrated
