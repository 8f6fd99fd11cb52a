"""The base class of every schema-backed model in tabletop and its games."""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, ConfigDict

__all__ = ["Model"]


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
