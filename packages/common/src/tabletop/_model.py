"""The base class of every schema-backed model in tabletop and its games."""

from __future__ import annotations

from collections.abc import Set
from functools import cache
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

__all__ = ["Model", "built"]

ModelT = TypeVar("ModelT", bound=BaseModel)

_new = object.__new__
_SLOTS = BaseModel.__dict__
_set_dict = _SLOTS["__dict__"].__set__
_set_fields = _SLOTS["__pydantic_fields_set__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__


class Model(BaseModel):
    """A pydantic model with the framework's conventions.

    Unknown fields are rejected, field docstrings become schema descriptions, defaults are
    validated, and model instances passed in are always re-validated (copied), so a model never
    aliases the data it was built from. The framework's frozen value models (board coordinates,
    cards) are the exception: being immutable, an instance of exactly their class is shared, not
    copied (``revalidate_instances="subclass-instances"``).
    """

    model_config = ConfigDict(
        extra="forbid",
        use_attribute_docstrings=True,
        revalidate_instances="always",
        validate_default=True,
        populate_by_name=True,
    )


@cache
def writes_directly(model: type[BaseModel]) -> bool:
    """True if assigning a field of a ``model`` neither validates nor is refused.

    Then the framework may write a field straight into ``__dict__`` (adding it to
    ``__pydantic_fields_set__``), which is all pydantic's ``__setattr__`` does for such a model,
    without its per-write dispatch (the engine's bookkeeping writes on every action).
    """
    config = model.model_config
    plain_setattr = model.__setattr__ is BaseModel.__setattr__
    return plain_setattr and not config.get("validate_assignment") and not config.get("frozen")


def built(model: type[ModelT], values: dict[str, object], fields_set: Set[str]) -> ModelT:
    """An instance of ``model`` holding ``values`` (valid already), without validating them again.

    What pydantic's ``model_construct`` does, at the cost of the frozen value models' hot paths
    (a turn started, a PRNG draw): ``values`` must hold every field, of the right types, and the
    model must have no extra fields and no private attributes. ``fields_set`` is shared, not
    copied: a frozen model's never changes.
    """
    made = _new(model)
    _set_dict(made, values)
    _set_fields(made, fields_set)
    _set_extra(made, None)
    _set_private(made, None)
    return made
