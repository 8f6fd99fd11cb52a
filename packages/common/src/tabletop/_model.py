"""The base class of every schema-backed model in tabletop and its games."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["Model"]


class Model(BaseModel):
    """A pydantic model with the framework's conventions.

    Unknown fields are rejected, field docstrings become schema descriptions, defaults are
    validated, and model instances passed in are always re-validated (copied), so a model never
    aliases the data it was built from.
    """

    model_config = ConfigDict(
        extra="forbid",
        use_attribute_docstrings=True,
        revalidate_instances="always",
        validate_default=True,
        populate_by_name=True,
    )
