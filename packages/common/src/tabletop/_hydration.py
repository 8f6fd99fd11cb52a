"""Hydration: plain schema-backed data ⇄ validated objects with behaviour.

A *hydrated* class subclasses its *plain* model and mixes in :class:`Hydrated`. When it is
defined, every inherited field whose type mentions a plain model that has a hydrated
counterpart is re-declared with the hydrated type, so nested children (players, the turn
manager, components) come out hydrated without any hand-written re-wrapping.

A generic plain model ``Board[T]`` gets a generic hydrated class in the same parameters
(``class HydratedBoard(Board[T], Hydrated[Board[T]], Generic[T])``); a ``Board[X]`` field is then
re-declared as ``HydratedBoard[X']`` (``X'`` hydrated too), and dehydrates to ``Board[X]``.
"""

from __future__ import annotations

import copy
import types
from collections.abc import Mapping
from functools import cache
from typing import Annotated, ClassVar, Generic, Self, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict

from tabletop._copier import copier, fields_set

__all__ = ["Hydrated", "HydrationInput", "hydrate", "hydrated_type_of"]

PlainT = TypeVar("PlainT", bound=BaseModel, covariant=True)

HydrationInput = BaseModel | Mapping[str, object] | bytes | bytearray | str
"""What a hydrated object can be built from: a model, a mapping, or JSON text."""

_HYDRATED_BY_PLAIN: dict[type[BaseModel], type[BaseModel]] = {}


def hydrated_type_of(plain: type[BaseModel]) -> type[BaseModel] | None:
    """Return the hydrated class registered for a plain model class, if any."""
    return _HYDRATED_BY_PLAIN.get(plain)


def _generic_metadata(cls: type) -> tuple[type | None, tuple[object, ...], tuple[object, ...]]:
    """A pydantic model's generic origin, arguments and open parameters (None, (), () if not generic)."""
    metadata = getattr(cls, "__pydantic_generic_metadata__", None)
    if metadata is None:
        return None, (), ()
    return metadata["origin"], tuple(metadata["args"]), tuple(metadata["parameters"])


def _substitute_model(cls: type) -> type:
    """Hydrate a model class: its hydrated class, or for ``Plain[Args]`` the ``HydratedPlain[Args]``."""
    hydrated = _HYDRATED_BY_PLAIN.get(cls)
    if hydrated is not None:
        return hydrated
    origin, args, _ = _generic_metadata(cls)
    if origin is None:
        return cls
    new_args = tuple(_substitute(arg) for arg in args)
    hydrated_origin = _HYDRATED_BY_PLAIN.get(origin)
    if hydrated_origin is None and all(new is old for new, old in zip(new_args, args, strict=True)):
        return cls
    return (hydrated_origin or origin)[new_args]  # type: ignore[no-any-return, index]


def _substitute(annotation: object) -> object:
    """Replace plain model classes inside a type expression by their hydrated classes."""
    if isinstance(annotation, type):
        return _substitute_model(annotation)
    origin = get_origin(annotation)
    if origin is None:
        return annotation
    args = get_args(annotation)
    new_args = tuple(_substitute(arg) for arg in args)
    if all(new is old for new, old in zip(new_args, args, strict=True)):
        return annotation
    if origin is Annotated:
        return Annotated[(new_args[0], *annotation.__metadata__)]  # type: ignore[attr-defined]
    if origin in (Union, types.UnionType):
        return Union[new_args]  # noqa: UP007 - built at run time from a tuple
    return origin[new_args]


def _plain_base(cls: type) -> type[BaseModel]:
    for base in cls.__mro__[1:]:
        if issubclass(base, BaseModel) and not issubclass(base, Hydrated):
            return base
    msg = f"{cls.__name__} mixes in Hydrated but has no plain pydantic model among its bases"
    raise TypeError(msg)


class Hydrated(Generic[PlainT]):
    """Mixin that turns a subclass of a plain model into its hydrated (behaviour-carrying) class.

    Example:
        >>> from tabletop import Model, Hydrated
        >>> class Counter(Model):
        ...     value: int = 0
        >>> class HydratedCounter(Counter, Hydrated[Counter]):
        ...     def bump(self) -> None:
        ...         self.value += 1
        >>> counter = HydratedCounter.hydrate({"value": 1})
        >>> counter.bump()
        >>> counter.dehydrate()
        Counter(value=2)
    """

    __plain_model__: ClassVar[type[BaseModel]]

    model_config: ClassVar[ConfigDict] = ConfigDict(from_attributes=True)
    """Merged into the hydrated model's config: a plain instance handed to a hydrated type (or
    field) is read by its attributes in pydantic's core, its nested values validated and so
    copied, without a Python validator on every hydrated model."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if (
            not issubclass(cls, BaseModel)
            or "[" in cls.__name__  # pydantic's parametrization of a generic class
            or "__plain_model__" in cls.__dict__
        ):
            return
        plain = _plain_base(cls)
        if Generic in cls.__bases__:
            plain_parameters = _generic_metadata(plain)[2]
            if not plain_parameters:
                return  # a generic base such as HydratedAction, not the hydrated form of a model
            if tuple(getattr(cls, "__parameters__", ())) != plain_parameters:
                msg = (
                    f"{cls.__name__} must be generic in the same type parameters as {plain.__name__} "
                    f"{plain_parameters}, in the same order"
                )
                raise TypeError(msg)
        cls.__plain_model__ = plain
        _HYDRATED_BY_PLAIN.setdefault(plain, cls)
        annotations = cls.__dict__.get("__annotations__", {})  # noqa: RUF063 - mutated below
        for name, field in plain.__pydantic_fields__.items():
            if name in annotations:
                continue  # the hydrated class re-declares the field itself
            hydrated_annotation = _substitute(field.annotation)
            if hydrated_annotation is field.annotation:
                continue
            redeclared = copy.copy(field)
            redeclared.annotation = hydrated_annotation  # type: ignore[assignment]
            factory = redeclared.default_factory
            if isinstance(factory, type) and factory in _HYDRATED_BY_PLAIN:
                redeclared.default_factory = _HYDRATED_BY_PLAIN[factory]
            annotations[name] = hydrated_annotation
            setattr(cls, name, redeclared)
        cls.__annotations__ = annotations

    @classmethod
    def hydrate(cls, data: HydrationInput) -> Self:
        """Build a hydrated object from a dict, JSON text/bytes, a plain model or a hydrated one.

        The result never aliases its input.

        Raises:
            pydantic.ValidationError: The data does not match the model.
        """
        if isinstance(data, bytes | bytearray | str):
            return cls.__pydantic_validator__.validate_json(data)  # type: ignore[attr-defined, no-any-return]
        return cls.__pydantic_validator__.validate_python(data)  # type: ignore[attr-defined, no-any-return]

    def dehydrate(self) -> PlainT:
        """Return the plain model holding the same data (a copy, losslessly)."""
        assert isinstance(self, BaseModel)
        plain = _plain_model_of(type(self))
        # Field by field from the declared types (what validating the fields would give, without
        # validating again what this object was validated as); every field counts as set.
        copied = copier(plain)(self)
        fields_set(copied, set(plain.__pydantic_fields__))
        return copied  # type: ignore[return-value]


@cache
def _plain_model_of(cls: type[BaseModel]) -> type[BaseModel]:
    """The plain model of a hydrated class; ``Plain[Args]`` for a parametrized ``HydratedPlain[Args]``."""
    plain: type[BaseModel] = cls.__plain_model__  # type: ignore[attr-defined]
    _, args, _ = _generic_metadata(cls)
    if not args or not _generic_metadata(plain)[2]:
        return plain
    plain_args = tuple(
        vars(arg).get("__plain_model__", arg) if isinstance(arg, type) else arg for arg in args
    )
    return plain[plain_args]  # type: ignore[index, no-any-return]


HydratedT = TypeVar("HydratedT", bound=Hydrated[BaseModel])


def hydrate(cls: type[HydratedT], data: HydrationInput) -> HydratedT:
    """Functional spelling of :meth:`Hydrated.hydrate`."""
    return cls.hydrate(data)
