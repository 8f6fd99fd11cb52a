"""Lazily built candidates: a search enumerates every candidate but builds only the one it draws.

A rollout draws one action among a player's candidates: building (validating) a model for each
of them costs most of the draw. While it is on (``lazy_candidates``, set around a class's ``enumerate``),
:meth:`~tabletop.HydratedAction.candidate` returns an *unbuilt* candidate instead: an instance
of the class holding the fields it was given, not validated yet (its fields-set is
:data:`UNBUILT`). :func:`built` turns one into the model ``candidate`` would have returned,
by the same validation of the same values. Unbuilt candidates never leave the search: only a
built one is checked, run or recorded.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import TypeVar

from pydantic import BaseModel

__all__ = ["UNBUILT", "built", "is_unbuilt", "lazy_candidates"]

ModelT = TypeVar("ModelT", bound=BaseModel)

lazy_candidates: ContextVar[bool] = ContextVar("tabletop_lazy_candidates", default=False)
"""True while a search enumerates lazily (per thread and task: a search in one thread never
makes another thread's ``enumerate`` lazy)."""

UNBUILT: frozenset[str] = frozenset({"\0unbuilt"})
"""The fields-set of an unbuilt candidate (compared by identity)."""


def is_unbuilt(model: BaseModel) -> bool:
    """True if ``model`` is an unbuilt candidate (see the module)."""
    fields: object = model.__pydantic_fields_set__
    return fields is UNBUILT


def built(candidate: ModelT) -> ModelT:
    """The model an unbuilt ``candidate`` stands for (validated from its values); else ``candidate``.

    Raises:
        pydantic.ValidationError: The values ``enumerate`` gave do not fit the action model.
    """
    if not is_unbuilt(candidate):
        return candidate
    made: ModelT = type(candidate).__pydantic_validator__.validate_python(candidate.__dict__)
    return made
