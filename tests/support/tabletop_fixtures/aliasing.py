"""What a copy may not share with its original: the ids of its mutable parts."""

from __future__ import annotations

from pydantic import BaseModel
from tabletop.components import FrozenDict

__all__ = ["mutable_parts"]


def mutable_parts(value: object, found: set[int] | None = None) -> set[int]:
    """Ids of every list, dict (a FrozenDict aside), set and non-frozen model inside ``value``, and
    of such a model's fields-set (assigning a field adds to it, so a copy sharing it would change
    the original)."""
    found = set() if found is None else found
    if isinstance(value, BaseModel):
        if not value.model_config.get("frozen"):
            found.add(id(value))
            found.add(id(value.__pydantic_fields_set__))
        for item in value.__dict__.values():
            mutable_parts(item, found)
    elif isinstance(value, list | dict | set):
        if type(value) is not FrozenDict:  # immutable: may be shared
            found.add(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            mutable_parts(item, found)
    return found
