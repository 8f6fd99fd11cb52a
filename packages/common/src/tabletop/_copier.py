"""Structural copies of validated models: a copier compiled once per model class.

A state that was validated when it was built (``engine.start``, ``load_state``, ``hydrate``) is
copied field by field from its declared types: values of an immutable type (strings, numbers,
enums, ``None``, tuples and :class:`~tabletop.components.FrozenDict` of such, frozen models of
immutable fields such as the turn manager and the PRNG state) are shared, lists, dicts and sets
are rebuilt, nested models are copied by their own copier. The result equals what re-validating the value
would give (same classes, same data, same ``model_fields_set``) and never aliases a mutable part
of its input, at a fraction of the cost. A value of another class than the one the copier was
built for (a plain model handed to a hydrated type, say), and a model the copier cannot read
(validators that may change data, private attributes, extra fields, untyped fields), go through
pydantic's validator instead, as before.
"""

from __future__ import annotations

import datetime
import decimal
import enum
import types
import uuid
from collections.abc import Callable
from functools import cache
from typing import Annotated, Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel

from tabletop._frozen import FrozenDict

__all__ = ["LazyCompiled", "UnreadableError", "copier", "fields_set", "only_checks", "shares", "value_copier"]

ModelT = TypeVar("ModelT", bound=BaseModel)

_ATOMS: frozenset[type] = frozenset(
    {
        str,
        int,
        float,
        bool,
        bytes,
        type(None),
        complex,
        decimal.Decimal,
        datetime.datetime,
        datetime.date,
        datetime.time,
        datetime.timedelta,
        uuid.UUID,
    }
)
"""Immutable value types a copy shares."""

_FIELDS_SET = BaseModel.__dict__["__pydantic_fields_set__"].__set__
fields_set: Callable[[BaseModel, set[str]], None] = _FIELDS_SET
"""Sets a model's ``model_fields_set`` (the slot pydantic keeps it in)."""
_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__
_CHECKS: set[object] = set()
"""Model validators that only check a value (see :func:`only_checks`)."""


def only_checks(model: type[BaseModel], *names: str) -> None:
    """Declare that ``model``'s model validators ``names`` only check, never change, a value.

    A structural copy of a valid value needs no check again, so such a model keeps its
    compiled copier instead of being validated on every copy.
    """
    validators = model.__pydantic_decorators__.model_validators
    _CHECKS.update(validators[name].func for name in names)


def _unwrap(annotation: object) -> object:
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


def shares(annotation: object) -> bool:
    """True if values of ``annotation`` are immutable, so a copy may share them."""
    try:
        return _shares(annotation)
    except TypeError:  # an unhashable type expression: nothing to share
        return False


@cache
def _shares(annotation: object) -> bool:
    annotation = _unwrap(annotation)
    if isinstance(annotation, type):
        if annotation in _ATOMS or issubclass(annotation, enum.Enum):
            return True
        if issubclass(annotation, BaseModel):
            return _frozen_value(annotation)
        return False
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is Literal:
        return all(type(arg) in _ATOMS or isinstance(arg, enum.Enum) for arg in args)
    if origin is Union or origin is types.UnionType:
        return all(shares(arg) for arg in args)
    if origin is tuple or origin is frozenset or origin is FrozenDict:
        return all(arg is Ellipsis or shares(arg) for arg in args)
    return False


def _frozen_value(model: type[BaseModel]) -> bool:
    """A frozen model with immutable fields only and nothing that may hold state elsewhere."""
    config = model.model_config
    return bool(
        config.get("frozen")
        and config.get("extra") != "allow"
        and not model.__private_attributes__
        and all(shares(field.annotation) for field in model.__pydantic_fields__.values())
    )


def _readable(model: type[BaseModel]) -> bool:
    """True if a field-by-field copy of a valid ``model`` equals re-validating it."""
    decorators = model.__pydantic_decorators__
    config = model.model_config
    return not (
        any(found.func not in _CHECKS for found in decorators.model_validators.values())
        or decorators.field_validators
        or decorators.validators
        or decorators.root_validators
        or decorators.field_serializers  # a copy is fine, but keep such models on pydantic's path
        or model.__pydantic_post_init__ is not None
        or model.__private_attributes__
        or config.get("extra") == "allow"
        or getattr(model, "__pydantic_root_model__", False)
        or model.__pydantic_generic_metadata__["parameters"]  # an unparametrized generic
    )


class _Compiler:
    """Writes the source of one model's copier; names free values it refers to in ``scope``."""

    def __init__(self, model: type[BaseModel]) -> None:
        self.model = model
        self.scope: dict[str, object] = {}
        self.counter = 0

    def name(self, value: object) -> str:
        self.counter += 1
        key = f"_v{self.counter}"
        self.scope[key] = value
        return key

    def expression(self, annotation: object, value: str, depth: int) -> str | None:
        """Python source copying ``value`` of type ``annotation``; None if it cannot say how."""
        annotation = _unwrap(annotation)
        if shares(annotation):
            return value
        item = f"_i{depth}"
        if isinstance(annotation, type):
            if issubclass(annotation, BaseModel):
                return f"{self.name(_nested(annotation))}({value})"
            return None
        origin = get_origin(annotation)
        args = get_args(annotation)
        if origin is list or origin is set:
            inner = self.expression(args[0], item, depth + 1) if args else None
            if inner is None:
                return None
            build = "list" if origin is list else "set"
            if inner == item:
                return f"{build}({value})"
            bracket = "[{}]" if origin is list else "{{{}}}"
            return bracket.format(f"{inner} for {item} in {value}")
        if origin is dict:
            if len(args) != 2 or not shares(args[0]):
                return None
            inner = self.expression(args[1], item, depth + 1)
            if inner is None:
                return None
            if inner == item:
                return f"dict({value})"
            key = f"_k{depth}"
            return f"{{{key}: {inner} for {key}, {item} in {value}.items()}}"
        if origin is tuple:
            if len(args) == 2 and args[1] is Ellipsis:
                inner = self.expression(args[0], item, depth + 1)
                return None if inner is None else f"tuple({inner} for {item} in {value})"
            return None
        if origin is Union or origin is types.UnionType:
            members = [arg for arg in args if arg is not type(None)]
            if len(members) == 1:
                inner = self.expression(members[0], value, depth)
                return None if inner is None else f"(None if {value} is None else {inner})"
            classes: dict[object, Callable[[Any], Any]] = {}
            for member in members:
                member = _unwrap(member)
                if not isinstance(member, type) or not issubclass(member, BaseModel):
                    return None
                classes[member] = _nested(member)
            return f"{self.name(_UnionCopier(classes, self.model))}({value})"
        return None


_COMPILING: set[type[BaseModel]] = set()


def _nested(model: type[BaseModel]) -> Callable[[Any], Any]:
    """The copier of a nested model; a lazy one while that model is being compiled (recursion)."""
    return LazyCompiled(model, copier) if model in _COMPILING else copier(model)


class LazyCompiled:
    """Calls the function ``compiler(model)`` makes, compiled on first use (models may refer to
    themselves, so a model's function may be needed while it is being compiled)."""

    __slots__ = ("compiler", "function", "model")

    def __init__(
        self, model: type[BaseModel], compiler: Callable[[type[BaseModel]], Callable[[Any], Any]]
    ) -> None:
        self.model = model
        self.compiler = compiler
        self.function: Callable[[Any], Any] | None = None

    def __call__(self, value: Any) -> Any:
        function = self.function
        if function is None:
            function = self.function = self.compiler(self.model)
        return function(value)


class _UnionCopier:
    """Copies a value of a union of models with the copier of its exact class."""

    __slots__ = ("classes", "owner")

    def __init__(self, classes: dict[object, Callable[[Any], Any]], owner: type[BaseModel]) -> None:
        self.classes = classes
        self.owner = owner

    def __call__(self, value: Any) -> Any:
        found = self.classes.get(type(value))
        if found is None:  # a class the union does not name exactly: validate the owner's way
            raise UnreadableError
        return found(value)


class _Fits(dict[type, bool]):
    """Per class: may an instance of it be copied into ``model`` field by field?

    Yes for a subclass with the same fields (a hydrated class into its plain model): pydantic
    re-validates such an instance into ``model`` too, from its fields. A parametrized generic
    counts its origin's subclasses parametrized alike (``HydratedSquareBoard[str]`` into
    ``SquareBoard[str]``: pydantic makes neither a subclass of the other) when every field is
    declared the same, so the values read are valid for ``model`` as they stand.
    """

    def __init__(self, model: type[BaseModel]) -> None:
        super().__init__()
        self.model = model

    def __missing__(self, cls: type) -> bool:
        fits = (
            issubclass(cls, BaseModel)
            and (issubclass(cls, self.model) or _same_generic(cls, self.model))
            and cls.__pydantic_fields__.keys() == self.model.__pydantic_fields__.keys()
            and cls.model_config.get("extra") != "allow"
        )
        self[cls] = fits
        return fits


def _same_generic(cls: type[BaseModel], model: type[BaseModel]) -> bool:
    """``cls`` is ``model``'s generic origin's subclass, with the same arguments and fields."""
    ours, theirs = cls.__pydantic_generic_metadata__, model.__pydantic_generic_metadata__
    if (
        not theirs["args"]
        or ours["args"] != theirs["args"]
        or ours["origin"] is None
        or theirs["origin"] is None
    ):
        return False
    if not issubclass(ours["origin"], theirs["origin"]):
        return False
    fields, declared = cls.__pydantic_fields__, model.__pydantic_fields__
    return fields.keys() == declared.keys() and all(
        fields[name].annotation == field.annotation and fields[name].metadata == field.metadata
        for name, field in declared.items()
    )


class UnreadableError(Exception):
    """A value the structural copy cannot read (a union member it does not name exactly).

    A model's copier catches it and validates instead; a :func:`value_copier` lets it out.
    """


def _validator(model: type[BaseModel]) -> Callable[[Any], Any]:
    """``model``'s validator, made never to share a fields-set with the instance it copies.

    Re-validating a model instance hands the new model the input's own
    ``__pydantic_fields_set__`` set (pydantic's behaviour): a copy would alias it, and setting a
    field on one would mark it set on the other.
    """
    validate = model.__pydantic_validator__.validate_python

    def validate_copy(value: Any) -> Any:
        copied = validate(value)
        _unshare_fields_sets(value, copied)
        return copied

    return validate_copy


def _unshare_fields_sets(value: object, copied: object) -> None:
    """Give every model in ``copied`` its own fields-set where it shares the one of its source in ``value``.

    Nested models too: validating a model re-validates a nested model instance the same way, and
    its copy would alias the nested instance's fields-set.
    """
    if isinstance(value, BaseModel) and isinstance(copied, BaseModel):
        if copied.__pydantic_fields_set__ is value.__pydantic_fields_set__:
            _FIELDS_SET(copied, set(value.__pydantic_fields_set__))
        if copied is not value:
            for name, item in value.__dict__.items():
                _unshare_fields_sets(item, copied.__dict__.get(name))
    elif isinstance(value, list | tuple) and isinstance(copied, list | tuple):
        for item, item_copy in zip(value, copied, strict=False):
            _unshare_fields_sets(item, item_copy)
    elif isinstance(value, dict) and isinstance(copied, dict):
        for key, item in value.items():
            _unshare_fields_sets(item, copied.get(key))


def _compile(model: type[ModelT]) -> Callable[[ModelT], ModelT]:
    validate = _validator(model)
    if not _readable(model):
        return validate
    compiler = _Compiler(model)
    entries = []
    for name, field in model.__pydantic_fields__.items():
        expression = compiler.expression(field.annotation, f"d[{name!r}]", 0)
        if expression is None:
            return validate
        entries.append(f"{name!r}: {expression}")
    scope = {
        **compiler.scope,
        "_model": model,
        "_fits": _Fits(model),
        "_validate": validate,
        "_new": object.__new__,
        "_set": object.__setattr__,
        "_fields_set": _FIELDS_SET,
        "_extra": _EXTRA,
        "_private": _PRIVATE,
        "UnreadableError": UnreadableError,
    }
    body = ",\n            ".join(entries)
    source = f"""
def copy(value):
    if type(value) is not _model and not _fits[type(value)]:
        return _validate(value)
    d = value.__dict__
    try:
        values = {{
            {body}
        }}
    except (UnreadableError, AttributeError, KeyError, TypeError):
        return _validate(value)
    copied = _new(_model)
    _set(copied, "__dict__", values)
    _fields_set(copied, set(value.__pydantic_fields_set__))
    _extra(copied, None)
    _private(copied, None)
    return copied
"""
    code = compile(source, f"<copier of {model.__qualname__}>", "exec")
    exec(code, scope)  # the source is built above from the model's own field names
    function: Callable[[ModelT], ModelT] = scope["copy"]
    return function


_COPIERS: dict[type[BaseModel], Callable[[Any], Any]] = {}


def _sharer(model: type[ModelT]) -> Callable[[ModelT], ModelT]:
    """The copier of an immutable model: an instance of exactly ``model`` is itself its copy."""
    validate = _validator(model)

    def share(value: ModelT) -> ModelT:
        return value if value.__class__ is model else validate(value)

    return share


def copier(model: type[ModelT]) -> Callable[[ModelT], ModelT]:
    """The function copying a valid instance of ``model`` (compiled on the first call per class).

    Given an instance of ``model`` (or of a subclass with the same fields, such as a hydrated
    class for its plain model), it returns a ``model`` equal to re-validating the value that
    shares no mutable part with it; given anything else (a plain model for a hydrated class, a
    dict), it validates, as ``model.model_validate`` would.
    """
    known = _COPIERS.get(model)
    if known is not None:
        return known
    if shares(model):
        function: Callable[[ModelT], ModelT] = _sharer(model)
    else:
        _COMPILING.add(model)
        try:
            function = _compile(model)
        finally:
            _COMPILING.discard(model)
    _COPIERS[model] = function
    return function


_VALUE_COPIERS: dict[object, Callable[[Any], Any]] = {}


def value_copier(annotation: object) -> Callable[[Any], Any] | None:
    """The function copying a valid value of the type expression ``annotation`` into that type.

    Models inside come out as the annotation names them (a hydrated value of a plain model's
    field becomes the plain model); None if the type is one the copier cannot read.
    """
    try:
        if annotation in _VALUE_COPIERS:
            return _VALUE_COPIERS[annotation]
    except TypeError:  # an unhashable type expression: not one the copier reads
        return None
    compiler = _Compiler(BaseModel)
    expression = compiler.expression(annotation, "value", 0)
    function: Callable[[Any], Any] | None = None
    if expression is not None:
        scope = dict(compiler.scope)
        exec(f"def copy(value):\n    return {expression}\n", scope)  # built from the annotation above
        function = scope["copy"]  # type: ignore[assignment]
    _VALUE_COPIERS[annotation] = function  # type: ignore[assignment]
    return function
