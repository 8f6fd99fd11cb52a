"""The request body a client sends for an action: strict, bounded, without engine-assigned fields.

One model per action type, derived from the action's plain model. The exported
``schemas/<game>/request.json`` and ``requests/<Type>.json`` are these models' schemas, and the
boundary parser validates client input with the very same models, so the two cannot disagree.
"""

from __future__ import annotations

import inspect
import types
from enum import Enum
from functools import cache
from typing import Annotated, Literal, Union, get_args, get_origin

import annotated_types
from pydantic import BaseModel, Field, StrictBool, StrictFloat, StrictInt, StrictStr, create_model
from pydantic.fields import FieldInfo

from tabletop._model import Model

__all__ = [
    "DEFAULT_MAX_PAYLOAD_BYTES",
    "ENGINE_ASSIGNED_FIELDS",
    "MAX_INTEGER",
    "MAX_STRING_LENGTH",
    "request_model",
]

ENGINE_ASSIGNED_FIELDS = frozenset({"source", "created_at", "reveals_info", "metadata"})
"""Action fields a client never sends: request schemas leave them out, the parser refuses them.

``source`` (a request is always a user action; system actions come from the engine),
``created_at`` (when the host received it), ``reveals_info`` (what the rules say the action
discloses) and ``metadata`` (what the action did, recorded on apply). A client sends ``id``,
``game_id``, ``type``, ``player_id``, the action's payload fields, and optionally two pins the
engine checks: ``index`` (the log position it expects) and ``simultaneous_group_id`` (the open
group it answers).
"""

MAX_STRING_LENGTH = 64
"""The length bound (in characters) of every string field of a request that declares none.

Ids (``id``, ``game_id``, ``player_id``, ``simultaneous_group_id``, ids in payloads) are bounded
by it; a game with free text declares its own ``max_length`` on the field, which is kept.
"""

MAX_INTEGER = 2**53 - 1
"""The magnitude bound of every integer field of a request that declares none on that side.

The largest integer every JSON client (JavaScript included) reads exactly.
"""

DEFAULT_MAX_PAYLOAD_BYTES = 64 * 1024
"""The default byte limit of a JSON request body (see ``ActionParser``)."""

_BOUNDED_STR = Annotated[StrictStr, Field(max_length=MAX_STRING_LENGTH)]
_BOUNDED_INT = Annotated[StrictInt, Field(ge=-MAX_INTEGER, le=MAX_INTEGER)]


_INDEX = (
    "The log position the client expects the action to take (optional); the engine refuses the "
    "action with stale-index if the game has moved on."
)


def _has(metadata: list[object], *kinds: type) -> bool:
    return any(isinstance(item, kinds) for item in metadata)


def _strict(annotation: object, metadata: list[object]) -> object:
    """``annotation`` with strict scalars and default bounds; ``metadata`` are its own constraints."""
    if annotation is bool:
        return StrictBool
    if annotation is int:
        lower = () if _has(metadata, annotated_types.Ge, annotated_types.Gt) else (Field(ge=-MAX_INTEGER),)
        upper = () if _has(metadata, annotated_types.Le, annotated_types.Lt) else (Field(le=MAX_INTEGER),)
        return Annotated[StrictInt, *lower, *upper] if lower or upper else StrictInt
    if annotation is float:
        return StrictFloat
    if annotation is str:
        bounded = _has(metadata, annotated_types.MaxLen)
        return StrictStr if bounded else _BOUNDED_STR
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return annotation  # enums match their values exactly
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _input_model(annotation)
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Annotated:
        inner, *extra = args
        return Annotated[_strict(inner, [*metadata, *extra]), *extra]
    if origin is Literal or not args:
        return annotation
    # Containers and unions: the members are bounded by default (the container's own
    # constraints, e.g. a list's max_length, stay on the field).
    members = tuple(arg if arg is type(None) or arg is Ellipsis else _strict(arg, []) for arg in args)
    if origin is Union or origin is types.UnionType:
        return Union[members]  # noqa: UP007 - built from a tuple
    return origin[members] if isinstance(origin, type) else annotation  # type: ignore[index]


@cache
def _input_model(model: type[BaseModel]) -> type[BaseModel]:
    """A nested model's strict, bounded form (``<Model>Input``): a subclass, so it fits its field."""
    plain = getattr(model, "__plain_model__", model)
    assert isinstance(plain, type) and issubclass(plain, BaseModel)
    fields = {name: _request_field(field) for name, field in plain.model_fields.items()}
    doc = inspect.cleandoc(plain.__doc__ or plain.__name__)
    return create_model(  # type: ignore[call-overload, no-any-return]
        f"{plain.__name__}Input", __base__=plain, __doc__=doc, __module__=plain.__module__, **fields
    )


def _request_field(field: FieldInfo) -> tuple[object, FieldInfo]:
    return _strict(field.annotation, list(field.metadata)), FieldInfo.merge_field_infos(field)


@cache
def request_model(action: type[BaseModel]) -> type[Model]:
    """The request body a client sends for ``action``: strict, bounded, engine fields left out.

    ``action`` may be hydrated; the request is derived from its plain model. The tag is
    required. Integers, booleans and strings are strict (``"3"``, ``2.0`` and ``true`` are not
    an integer); enums and literals match their values exactly; a string field without its own
    ``max_length`` gets :data:`MAX_STRING_LENGTH`, an integer side without a bound
    ±:data:`MAX_INTEGER`.

    Example:
        >>> from tabletop.games import load
        >>> AddAmount = request_model(load("sample").action_by_type["AddAmount"])
        >>> sorted(AddAmount.model_fields)
        ['amount', 'game_id', 'id', 'index', 'player_id', 'simultaneous_group_id', 'type']
    """
    plain = getattr(action, "__plain_model__", action)
    assert isinstance(plain, type) and issubclass(plain, BaseModel)
    fields: dict[str, object] = {}
    for name, field in plain.model_fields.items():
        if name in ENGINE_ASSIGNED_FIELDS:
            continue
        if name == "type":
            fields[name] = (field.annotation, Field(description=field.description))
        elif name == "index":
            fields[name] = (
                _strict(field.annotation, list(field.metadata)),
                Field(None, ge=0, description=_INDEX),
            )
        else:
            fields[name] = _request_field(field)
    summary = inspect.cleandoc(plain.__doc__ or plain.__name__)
    doc = f"{summary}\n\nThe request body a client sends: the action without engine-assigned fields."
    return create_model(  # type: ignore[call-overload, no-any-return]
        f"{plain.__name__}Request", __base__=Model, __doc__=doc, __module__=plain.__module__, **fields
    )
