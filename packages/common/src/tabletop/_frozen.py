"""An immutable dict for the fields of frozen models: validated, serialized and described as a dict."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn, TypeVar

from pydantic import GetCoreSchemaHandler
from pydantic_core import CoreSchema, core_schema

__all__ = ["FrozenDict"]

KeyT = TypeVar("KeyT")
ValueT = TypeVar("ValueT")
_K = TypeVar("_K")
_V = TypeVar("_V")

_put = dict.__setitem__


class FrozenDict(dict[KeyT, ValueT]):
    """A dict that refuses every change, so the frozen model holding it may be shared.

    As a model field (``FrozenDict[str, int]``) it validates, serializes and has the JSON
    schema of the plain ``dict[str, int]``: the same data, only immutable in memory. Being a
    dict, it reads as one everywhere (``isinstance(x, dict)``, ``==`` with a dict, JSON
    encoders). A change is a new value: :meth:`set`.

    Example:
        >>> counts = FrozenDict({"a": 1})
        >>> counts.set("a", 2), counts
        ({'a': 2}, {'a': 1})
        >>> counts["b"] = 1
        Traceback (most recent call last):
        ...
        TypeError: a FrozenDict cannot change; make a new one (FrozenDict.set)
    """

    __slots__ = ()

    def set(self, key: KeyT, value: ValueT) -> FrozenDict[KeyT, ValueT]:
        """Return a copy of this dict with ``key`` mapped to ``value``."""
        changed: FrozenDict[KeyT, ValueT] = FrozenDict(self)
        _put(changed, key, value)
        return changed

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        msg = "a FrozenDict cannot change; make a new one (FrozenDict.set)"
        raise TypeError(msg)

    __setitem__ = _refuse
    __delitem__ = _refuse
    __ior__ = _refuse
    clear = _refuse
    pop = _refuse
    popitem = _refuse
    setdefault = _refuse
    update = _refuse

    def __hash__(self) -> int:  # type: ignore[override]  # a dict is unhashable; an immutable one is
        return hash(frozenset(self.items()))

    def __repr__(self) -> str:
        return dict.__repr__(self)

    def __reduce__(self) -> tuple[type[FrozenDict[KeyT, ValueT]], tuple[dict[KeyT, ValueT]]]:
        return (type(self), (dict(self),))  # pickling a dict subclass would set its items one by one

    def __copy__(self) -> FrozenDict[KeyT, ValueT]:
        return self

    @classmethod
    def fromkeys(cls, keys: Iterable[_K], value: _V, /) -> FrozenDict[_K, _V]:  # type: ignore[override]
        """A FrozenDict of ``keys`` all mapped to ``value``."""
        return FrozenDict(dict.fromkeys(keys, value))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> CoreSchema:
        """The schema of ``dict[K, V]``, its validated dict made a FrozenDict."""
        args = getattr(source, "__args__", None) or (Any, Any)
        plain: object = dict[args]  # type: ignore[valid-type, misc]
        return core_schema.no_info_after_validator_function(cls, handler.generate_schema(plain))
