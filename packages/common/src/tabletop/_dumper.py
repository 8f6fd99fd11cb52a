"""JSON bytes of a model from a dump plan compiled once per model class.

``orjson.dumps(model.model_dump(mode="json"))`` walks pydantic's serializer and builds a fresh
tree of dicts and lists that orjson then walks again. A dump plan builds only the dicts orjson
cannot read by itself (one per model) and hands it the model's own lists of strings, numbers
and enums as they are: the same bytes, with less work. A model the plan cannot read (custom
serializers, computed fields, aliases, extra fields, values pydantic writes in its own format
such as datetimes) is dumped by pydantic, so the bytes never differ.
"""

from __future__ import annotations

import enum
import types
from collections.abc import Callable
from typing import Annotated, Any, Literal, Union, get_args, get_origin

import orjson
from pydantic import BaseModel

from tabletop._copier import LazyCompiled
from tabletop._frozen import FrozenDict

__all__ = ["dump_json"]

_NATIVE = frozenset({str, int, bool, type(None)})
"""Types orjson writes exactly as pydantic's JSON mode does (floats too, see ``_native``)."""


def _unwrap(annotation: object) -> object:
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


def _native(annotation: object) -> bool:
    """True if orjson writes a value of ``annotation`` itself, as pydantic's JSON mode would."""
    annotation = _unwrap(annotation)
    if isinstance(annotation, type):
        if annotation in _NATIVE or annotation is float:
            return True
        return issubclass(annotation, enum.Enum) and all(
            type(member.value) in _NATIVE for member in annotation
        )
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Literal:
        return all(type(arg) in _NATIVE or isinstance(arg, enum.Enum) for arg in args)
    if origin is Union or origin is types.UnionType:
        return all(_native(arg) for arg in args)
    if origin is list or origin is tuple:
        return all(arg is Ellipsis or _native(arg) for arg in args)
    if origin is dict or origin is FrozenDict:  # orjson writes a dict subclass as a dict
        return len(args) == 2 and _unwrap(args[0]) is str and _native(args[1])
    return False


def _plain_dumpable(model: type[BaseModel]) -> bool:
    config = model.model_config
    decorators = model.__pydantic_decorators__
    return not (
        decorators.field_serializers
        or decorators.model_serializers
        or model.__pydantic_computed_fields__
        or config.get("extra") == "allow"
        or config.get("ser_json_timedelta", "iso8601") != "iso8601"
        or any(
            field.exclude or field.serialization_alias or field.alias
            for field in model.__pydantic_fields__.values()
        )
        or getattr(model, "__pydantic_root_model__", False)
    )


class _Writer:
    def __init__(self) -> None:
        self.scope: dict[str, object] = {}

    def name(self, value: object) -> str:
        key = f"_v{len(self.scope)}"
        self.scope[key] = value
        return key

    def expression(self, annotation: object, value: str, depth: int) -> str | None:
        annotation = _unwrap(annotation)
        if _native(annotation):
            return value
        item = f"_i{depth}"
        if isinstance(annotation, type):
            if issubclass(annotation, BaseModel):
                nested = LazyCompiled(annotation, _plan) if annotation in _PLANNING else _plan(annotation)
                return f"{self.name(nested)}({value})"
            return None
        origin = get_origin(annotation)
        args = get_args(annotation)
        if origin is list or (origin is tuple and len(args) == 2 and args[1] is Ellipsis):
            inner = self.expression(args[0], item, depth + 1)
            return None if inner is None else f"[{inner} for {item} in {value}]"
        if (origin is dict or origin is FrozenDict) and len(args) == 2 and _unwrap(args[0]) is str:
            inner = self.expression(args[1], item, depth + 1)
            key = f"_k{depth}"
            return None if inner is None else f"{{{key}: {inner} for {key}, {item} in {value}.items()}}"
        if origin is Union or origin is types.UnionType:
            members = [arg for arg in args if arg is not type(None)]
            if len(members) == 1:
                inner = self.expression(members[0], value, depth)
                return None if inner is None else f"(None if {value} is None else {inner})"
        return None


_PLANS: dict[type[BaseModel], Callable[[Any], Any]] = {}
_PLANNING: set[type[BaseModel]] = set()
"""Models whose plan is being compiled (a model referring to itself gets a lazy plan)."""


def _pydantic(value: BaseModel) -> Any:
    return value.model_dump(mode="json")


def _entries(model: type[BaseModel], writer: _Writer) -> list[str] | None:
    """``"name": expression`` per field of ``model``; None if some field's type is not planned."""
    entries = []
    for name, field in model.__pydantic_fields__.items():
        expression = writer.expression(field.annotation, f"d[{name!r}]", 0)
        if expression is None:
            return None
        entries.append(f"{name!r}: {expression}")
    return entries


def _plan(model: type[BaseModel]) -> Callable[[Any], Any]:
    """The function turning an instance of ``model`` into what orjson dumps as its JSON."""
    known = _PLANS.get(model)
    if known is not None:
        return known
    function: Callable[[Any], Any] = _pydantic
    if _plain_dumpable(model):
        writer = _Writer()
        _PLANNING.add(model)
        try:
            entries = _entries(model, writer)
        finally:
            _PLANNING.discard(model)
        if entries is not None:
            scope = {**writer.scope, "_model": model, "_pydantic": _pydantic}
            body = ", ".join(entries)
            # Another class (a subclass with more fields, say) is dumped by pydantic itself.
            source = (
                "def plain(value):\n"
                "    if type(value) is not _model and not isinstance(value, _model):\n"
                "        return _pydantic(value)\n"
                "    d = value.__dict__\n"
                f"    return {{{body}}}\n"
            )
            exec(compile(source, f"<dump plan of {model.__qualname__}>", "exec"), scope)  # built above
            function = scope["plain"]  # type: ignore[assignment]
    _PLANS[model] = function
    return function


def dump_json(model: BaseModel) -> bytes:
    """The JSON bytes of ``model``: ``orjson.dumps(model.model_dump(mode="json"))``, faster.

    The dump plan is compiled once per model class; a model it cannot read is dumped by
    pydantic, so the bytes are always the same as that expression's.

    Example:
        >>> from tabletop import PrngState, dump_json
        >>> dump_json(PrngState(seed=7))
        b'{"seed":7,"invocations":0,"key":null}'
    """
    try:
        return orjson.dumps(_plan(type(model))(model))
    except TypeError:  # a value the plan handed to orjson as it is, but orjson cannot write
        return orjson.dumps(model.model_dump(mode="json"))
