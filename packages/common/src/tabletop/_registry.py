"""Deriving a game's action registry: its action classes and its ``ActionType`` enum.

A game in the workspace layout keeps one module per action under ``<package>.actions``; the
definition finds the action classes there, so a new action is its module plus its name in the
states that accept it (and its ``ActionType`` member, which the ``Literal`` tag names).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import pkgutil
from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Literal, TypeVar, get_args, get_origin

from pydantic import BaseModel

from tabletop._action import GameAction
from tabletop._game import GameConfig
from tabletop._machine import AnyState, HydratedAction, StateHandler

__all__ = ["action_enum", "discover_actions", "handler_config_type", "in_enum_order"]

ModelT = TypeVar("ModelT", bound=BaseModel)
AnyAction = HydratedAction[GameAction, AnyState, GameConfig]


def discover_actions(anchor: type) -> list[type[AnyAction]]:
    """Every action class defined in the modules of the ``actions`` package next to ``anchor``.

    ``anchor`` is a class of the game (its state type): the package searched is the nearest
    ``actions`` package beside one of the anchor module's packages, so for
    ``tabletop_pig.model.game_state`` it is ``tabletop_pig.actions``. A class counts if it is a
    :class:`HydratedAction` narrowing ``type`` to one ``Literal`` tag and is defined in the
    module (imports of other modules' classes are not counted twice). Modules are read in name
    order; an absent ``actions`` package gives ``[]``.
    """
    parts = anchor.__module__.split(".")
    names = [".".join([*parts[:end], "actions"]) for end in range(len(parts) - 1, 0, -1)]
    found_name = next((name for name in names if _exists(name)), None)
    if found_name is None:
        return []
    package = importlib.import_module(found_name)
    modules = [package]
    for info in sorted(pkgutil.iter_modules(getattr(package, "__path__", [])), key=lambda m: m.name):
        modules.append(importlib.import_module(f"{package.__name__}.{info.name}"))
    found: list[type[AnyAction]] = []
    for module in modules:
        for _, value in inspect.getmembers(module, inspect.isclass):
            if (
                value.__module__ == module.__name__
                and issubclass(value, HydratedAction)
                and _tag_member(value) is not None
            ):
                found.append(value)
    return found


def _exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent is not a package
        return False


def _tag_member(action: type[BaseModel]) -> object | None:
    field = action.model_fields.get("type")
    if field is None or get_origin(field.annotation) is not Literal:
        return None
    values = get_args(field.annotation)
    return values[0] if len(values) == 1 else None


def action_enum(actions: Iterable[type[BaseModel]], accepted: Iterable[object] = ()) -> type[StrEnum] | None:
    """The ``ActionType`` enum the actions' ``Literal`` tags (or the accepted types) are members of."""
    for member in [*(_tag_member(action) for action in actions), *accepted]:
        if isinstance(member, StrEnum):
            return type(member)
    return None


def in_enum_order(actions: Sequence[type[ModelT]], enum: type[StrEnum]) -> list[type[ModelT]]:
    """``actions`` sorted by the position of their tag in ``enum`` (unknown tags last, by name).

    This is the order of ``GameDefinition.actions`` and of the action-space codec's numbering:
    the ``ActionType`` declaration order, whatever order the classes were listed or found in.
    """
    position = {member.value: index for index, member in enumerate(enum)}

    def key(action: type[ModelT]) -> tuple[int, str]:
        tag = _tag_member(action)
        value = tag.value if isinstance(tag, StrEnum) else str(tag)
        return position.get(value, len(position)), value

    return sorted(actions, key=key)


def handler_config_type(handlers: Iterable[object]) -> type[GameConfig]:
    """The config type the handlers' classes parametrize ``StateHandler`` with, else ``GameConfig``.

    ``class PlayerTurn(StateHandler[PigGameState, PigConfig])`` (or a subclass of an alias of
    it) gives ``PigConfig``.
    """
    for handler in handlers:
        for klass in type(handler).__mro__:
            for base in getattr(klass, "__orig_bases__", ()):
                origin = get_origin(base)
                if isinstance(origin, type) and issubclass(origin, StateHandler):
                    args = get_args(base)
                    if len(args) == 2 and isinstance(args[1], type) and issubclass(args[1], GameConfig):
                        return args[1]
    return GameConfig
