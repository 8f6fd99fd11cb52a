"""Hydration: plain schema-backed data ⇄ validated objects with behaviour.

A *hydrated* class subclasses its *plain* model and mixes in :class:`Hydrated`. When it is
defined, every inherited field whose type mentions a plain model that has a hydrated
counterpart is re-declared with the hydrated type, so nested children (players, the turn
manager, components) come out hydrated without any hand-written re-wrapping.
"""

from __future__ import annotations

import copy
import types
from collections.abc import Mapping
from typing import Annotated, ClassVar, Generic, Self, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, model_validator

__all__ = ["Hydrated", "HydrationInput", "hydrate", "hydrated_type_of"]

PlainT = TypeVar("PlainT", bound=BaseModel, covariant=True)

HydrationInput = BaseModel | Mapping[str, object] | bytes | bytearray | str
"""What a hydrated object can be built from: a model, a mapping, or JSON text."""

_HYDRATED_BY_PLAIN: dict[type[BaseModel], type[BaseModel]] = {}


def hydrated_type_of(plain: type[BaseModel]) -> type[BaseModel] | None:
    """Return the hydrated class registered for a plain model class, if any."""
    return _HYDRATED_BY_PLAIN.get(plain)


def _substitute(annotation: object) -> object:
    """Replace plain model classes inside a type expression by their hydrated classes."""
    if isinstance(annotation, type):
        return _HYDRATED_BY_PLAIN.get(annotation, annotation)
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

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        if (
            not issubclass(cls, BaseModel)
            or Generic in cls.__bases__  # a generic base such as HydratedAction
            or "[" in cls.__name__  # pydantic's parametrization of such a base
            or "__plain_model__" in cls.__dict__
        ):
            return
        plain = _plain_base(cls)
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

    @model_validator(mode="before")
    @classmethod
    def _accept_plain_instance(cls, data: object) -> object:
        # A plain instance handed to a hydrated field: validate its data (shallow view; nested
        # values are re-validated and so copied).
        if isinstance(data, BaseModel) and not isinstance(data, cls):
            return dict(data.__dict__)
        return data

    @classmethod
    def hydrate(cls, data: HydrationInput) -> Self:
        """Build a hydrated object from a dict, JSON text/bytes, a plain model or a hydrated one.

        The result never aliases its input.

        Raises:
            pydantic.ValidationError: The data does not match the model.
        """
        if isinstance(data, bytes | bytearray | str):
            return cls.model_validate_json(data)  # type: ignore[attr-defined, no-any-return]
        return cls.model_validate(data)  # type: ignore[attr-defined, no-any-return]

    def dehydrate(self) -> PlainT:
        """Return the plain model holding the same data (a copy, losslessly)."""
        assert isinstance(self, BaseModel)
        plain = type(self).__plain_model__
        return plain.model_validate(dict(self.__dict__))  # type: ignore[return-value]


HydratedT = TypeVar("HydratedT", bound=Hydrated[BaseModel])


def hydrate(cls: type[HydratedT], data: HydrationInput) -> HydratedT:
    """Functional spelling of :meth:`Hydrated.hydrate`."""
    return cls.hydrate(data)
