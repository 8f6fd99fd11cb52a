"""What a view or copy is made of: the classes of the models inside a value."""

from __future__ import annotations

from pydantic import BaseModel

__all__ = ["model_classes"]


def model_classes(value: object) -> list[str]:
    """The class of every model inside ``value``, in order (views must use the reference's types)."""
    if isinstance(value, BaseModel):
        inner = [c for item in value.__dict__.values() for c in model_classes(item)]
        return [type(value).__qualname__, *inner]
    if isinstance(value, list | tuple):
        return [c for item in value for c in model_classes(item)]
    if isinstance(value, dict):
        return [c for item in value.values() for c in model_classes(item)]
    return []
