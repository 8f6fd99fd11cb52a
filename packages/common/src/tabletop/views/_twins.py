"""Frozen twins: the immutable types a state's view holds, so seats may share its parts.

A state view is frozen and holds tuples for lists. A model inside it that hides nothing keeps
its name, schema and JSON but becomes its *frozen twin*: a frozen subclass with tuples for
lists (nested models twinned too). An immutable value is built once and may be shared by every
seat's view; dicts and sets stay mutable, so they are built per view.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Annotated, Any, Union, get_args, get_origin

from pydantic import BaseModel, Field, create_model
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from tabletop._copier import UnreadableError, copier, fields_set, shares
from tabletop.views._analysis import is_union, plain_of

__all__ = ["converter", "frozen_twin", "immutable_field", "immutable_of", "mark_derived", "twin_source"]

_LOCK = threading.RLock()
_DERIVED: set[type[BaseModel]] = set()
"""The derived view types (frozen and immutable already where they need to be)."""


def mark_derived(view_type: type[BaseModel]) -> None:
    """Record a derived view type: :func:`immutable_of` keeps it as it is."""
    _DERIVED.add(view_type)


def immutable_field(annotation: object, field: FieldInfo) -> tuple[object, FieldInfo]:
    """A state view's field (``annotation`` and ``field`` as derived): the annotation as
    :func:`immutable_of` makes it, a list default a tuple."""
    new = immutable_of(annotation)
    if new is annotation:
        return annotation, field
    changes = _tuple_default(field)
    return new, _with(field, **changes) if changes else field


def _tuple_default(field: FieldInfo) -> dict[str, object]:
    if isinstance(field.default, list):
        return {"default": tuple(field.default)}
    if field.default_factory is list:
        return {"default_factory": tuple}
    if field.default is not PydanticUndefined:
        return {"default": field.default}
    if field.default_factory is not None:
        return {"default_factory": field.default_factory}
    return {}


def _with(field: FieldInfo, **changes: object) -> FieldInfo:
    attributes = {
        key: value
        for key, value in field.asdict()["attributes"].items()
        if value is not None and key not in ("default", "default_factory")
    }
    attributes.update(changes)
    return Field(**attributes)  # type: ignore[no-any-return]


def immutable_of(annotation: object) -> object:
    """The type a state view holds for a value of ``annotation``: lists become tuples (of
    immutable items), models that hide nothing their frozen twins (:func:`frozen_twin`); dicts and
    sets stay what they are, holding immutable values. Returns ``annotation`` itself if nothing
    changes.
    """
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel) and annotation not in _DERIVED:
            return frozen_twin(annotation)
        return annotation
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is None or not args:
        return annotation
    if origin is Annotated:
        inner = immutable_of(args[0])
        return annotation if inner is args[0] else Annotated[(inner, *annotation.__metadata__)]  # type: ignore[attr-defined]
    if origin is list:
        return tuple[immutable_of(args[0]), ...]  # type: ignore[misc]
    if origin is dict:
        value = immutable_of(args[1])
        return annotation if value is args[1] else dict[args[0], value]  # type: ignore[valid-type]
    if is_union(annotation):
        members = tuple(immutable_of(arg) for arg in args)
        return annotation if members == args else Union[members]  # noqa: UP007
    return annotation


_TWINS: dict[type[BaseModel], type[BaseModel]] = {}
_TWIN_SOURCES: dict[type[BaseModel], type[BaseModel]] = {}


def twin_source(twin: type[BaseModel]) -> type[BaseModel] | None:
    """The model a frozen twin was made from (None for other classes)."""
    return _TWIN_SOURCES.get(twin)


def frozen_twin(model: type[BaseModel]) -> type[BaseModel]:
    """The frozen twin of a model that hides nothing, as state views hold it.

    A subclass of ``model`` with the same name, schema and JSON, but frozen and with tuples for
    lists (nested models twinned too), so one instance can be shared by every seat's view. The
    model itself if it is frozen and immutable already, if a twin would still hold a mutable
    value (a dict, a set: then each view gets its own copy of the model), or if a twin could
    differ from it (custom validators or serializers, private attributes, extra fields, a root
    or generic model).
    """
    known = _TWINS.get(model)
    if known is not None:
        return known
    with _LOCK:
        return _twin_locked(model)


def _twin_locked(model: type[BaseModel]) -> type[BaseModel]:
    known = _TWINS.get(model)
    if known is not None:
        return known
    if shares(model) or not _twinnable(model):
        _TWINS[model] = model
        return model
    _TWINS[model] = model  # while the fields are twinned: a recursive model refers to itself
    fields: dict[str, tuple[object, FieldInfo]] = {}
    for name, field in model.__pydantic_fields__.items():
        annotation = immutable_of(field.annotation)
        if annotation is not field.annotation:
            info = _with(field, **_tuple_default(field))
            metadata = tuple(field.metadata)  # kept apart from the field's own settings, as declared
            fields[name] = (Annotated[(annotation, *metadata)] if metadata else annotation, info)
    if not fields and model.model_config.get("frozen"):
        return model
    twin = create_model(  # type: ignore[call-overload]
        model.__name__,
        __base__=model,
        __doc__=model.__doc__,
        __module__=model.__module__,
        __cls_kwargs__={"frozen": True},
        **fields,
    )
    twin.__qualname__ = model.__qualname__
    if not shares(twin):  # it would still hold a dict or a set: copied per view like the model
        return model
    _TWINS[model] = twin
    _TWIN_SOURCES[twin] = model
    return twin


def _twinnable(model: type[BaseModel]) -> bool:
    """True if a frozen subclass with tuples for lists validates and serializes as ``model`` does."""
    decorators = model.__pydantic_decorators__
    config = model.model_config
    return not (
        decorators.field_validators
        or decorators.validators
        or decorators.root_validators
        or decorators.field_serializers
        or decorators.model_serializers
        or decorators.computed_fields
        or any(found.info.mode == "wrap" for found in decorators.model_validators.values())
        or model.__private_attributes__
        or config.get("extra") == "allow"
        or getattr(model, "__pydantic_root_model__", False)
        or model.__pydantic_generic_metadata__["parameters"]
        or model.__pydantic_generic_metadata__["origin"] is not None  # a parametrized name
    )


_Convert = Callable[[Any], Any]
_CONVERTERS: dict[object, _Convert | None] = {}
_new = object.__new__
_SLOTS = BaseModel.__dict__
_set_dict = _SLOTS["__dict__"].__set__
_set_extra = _SLOTS["__pydantic_extra__"].__set__
_set_private = _SLOTS["__pydantic_private__"].__set__


def converter(annotation: object) -> _Convert | None:
    """The function turning a valid state value into the view value of ``annotation`` (a type
    :func:`immutable_of` made): lists into tuples, models into their twins, dicts and sets and
    mutable models into fresh copies; None if the value is immutable and kept as it is.

    Raises:
        TypeError: A type the converter cannot build (the reference path projects it).
    """
    try:
        if annotation in _CONVERTERS:
            return _CONVERTERS[annotation]
    except TypeError:  # an unhashable type expression
        raise TypeError(annotation) from None
    made = _converter(annotation)
    _CONVERTERS[annotation] = made
    return made


def _converter(annotation: object) -> _Convert | None:
    if isinstance(annotation, type):
        if not issubclass(annotation, BaseModel):
            if shares(annotation):
                return None
            raise TypeError(annotation)
        source = _TWIN_SOURCES.get(annotation)
        if source is not None:
            return _twin_converter(annotation)
        if annotation in _DERIVED:
            raise TypeError(annotation)  # a nested view: the projector builds it
        return None if shares(annotation) else copier(annotation)
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Annotated:
        return converter(args[0])
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = converter(args[0])
        if item is None:
            return tuple
        return lambda value: tuple([item(each) for each in value])
    if origin is dict and len(args) == 2:
        if converter(args[0]) is not None:
            raise TypeError(annotation)
        value_of = converter(args[1])
        if value_of is None:
            return dict
        return lambda value: {key: value_of(each) for key, each in value.items()}
    if origin is set and len(args) == 1 and converter(args[0]) is None:
        return set
    if is_union(annotation):
        return _union_converter(annotation, args)
    if shares(annotation):
        return None
    raise TypeError(annotation)


def _union_converter(annotation: object, args: tuple[object, ...]) -> _Convert | None:
    members = [arg for arg in args if arg is not type(None)]
    if len(members) == 1:
        inner = converter(members[0])
        return None if inner is None else lambda value: None if value is None else inner(value)
    if shares(annotation):
        return None
    by_class: dict[type, _Convert | None] = {}
    for member in members:
        model = get_origin(member) or member
        if get_origin(member) is Annotated:
            model = get_args(member)[0]
        if not isinstance(model, type) or not issubclass(model, BaseModel):
            raise TypeError(annotation)
        by_class[plain_of(_TWIN_SOURCES.get(model, model))] = converter(model)

    def convert(value: Any) -> Any:
        if value is None:
            return None
        made = by_class.get(plain_of(type(value)), _MISSING)
        if made is _MISSING:
            raise UnreadableError
        return value if made is None else made(value)

    return convert


_MISSING: Any = object()


def _twin_converter(twin: type[BaseModel]) -> _Convert:
    fields = [(name, converter(field.annotation)) for name, field in twin.__pydantic_fields__.items()]

    def convert(value: Any) -> Any:
        d = value.__dict__
        made = _new(twin)
        _set_dict(
            made, {name: d[name] if to is None or d[name] is None else to(d[name]) for name, to in fields}
        )
        fields_set(made, set(value.__pydantic_fields_set__))
        _set_extra(made, None)
        _set_private(made, None)
        return made

    return convert
