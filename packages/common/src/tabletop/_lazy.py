"""Lazily built candidates: a search enumerates every candidate but builds only the one it draws.

A rollout draws one action among a player's candidates: building (validating) a model for each
of them costs most of the draw. While it is on (``lazy_candidates``, set around a class's ``enumerate``),
:meth:`~tabletop.HydratedAction.candidate` returns an *unbuilt* candidate instead: an instance
of the class holding the fields it was given, not validated yet (its fields-set is
:data:`UNBUILT`). :func:`built` turns one into the model ``candidate`` would have returned,
by the same validation of the same values. Unbuilt candidates never leave the search: only a
built one is checked, run or recorded.

:meth:`~tabletop.HydratedAction.candidates` goes one step further for a type with many
candidates that differ in one field (a cell, a card): while lazy, it returns
:class:`UnbuiltCandidates`, a sequence that makes an unbuilt candidate only for the positions a
search reads, so a draw among a hundred cells makes one object instead of a hundred.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from typing import TypeVar, overload

from pydantic import BaseModel

from tabletop._copier import fields_set

__all__ = ["UNBUILT", "UnbuiltCandidates", "built", "is_unbuilt", "lazy_candidates", "unbuilt"]

ModelT = TypeVar("ModelT", bound=BaseModel)

lazy_candidates: ContextVar[bool] = ContextVar("tabletop_lazy_candidates", default=False)
"""True while a search enumerates lazily (per thread and task: a search in one thread never
makes another thread's ``enumerate`` lazy)."""

UNBUILT: frozenset[str] = frozenset({"\0unbuilt"})
"""The fields-set of an unbuilt candidate (compared by identity)."""

_new = object.__new__
_set = object.__setattr__


def unbuilt(cls: type[ModelT], values: dict[str, object]) -> ModelT:
    """An unbuilt candidate of ``cls`` holding ``values`` (owned by it from now on), not validated."""
    made = _new(cls)
    _set(made, "__dict__", values)
    fields_set(made, UNBUILT)  # type: ignore[arg-type]  # identity-compared sentinel
    _set(made, "__pydantic_extra__", None)
    _set(made, "__pydantic_private__", None)
    return made


def is_unbuilt(model: BaseModel) -> bool:
    """True if ``model`` is an unbuilt candidate (see the module)."""
    fields: object = model.__pydantic_fields_set__
    return fields is UNBUILT


def built(candidate: ModelT) -> ModelT:
    """The model an unbuilt ``candidate`` stands for (validated from its values); else ``candidate``.

    Raises:
        pydantic.ValidationError: The values ``enumerate`` gave do not fit the action model.
    """
    if not is_unbuilt(candidate):
        return candidate
    made: ModelT = type(candidate).__pydantic_validator__.validate_python(candidate.__dict__)
    return made


class UnbuiltCandidates(Sequence[ModelT]):
    """Candidates of one class that differ in one field, made (unbuilt) only when read.

    Position ``i`` is ``unbuilt(cls, {**common, field: values[i]})``: what
    :meth:`~tabletop.HydratedAction.candidate` makes while lazy for the same fields, a new
    object on every read (each read is the reader's own, as ``enumerate``'s candidates are).

    Args:
        cls: The action class.
        common: The fields every candidate shares, in ``candidate``'s order (the envelope first).
        field: The field that differs.
        values: Its value in each candidate, in order (the sequence keeps this list).
    """

    __slots__ = ("_cls", "_common", "_field", "_values")

    def __init__(
        self, cls: type[ModelT], common: dict[str, object], field: str, values: list[object]
    ) -> None:
        self._cls = cls
        self._common = common
        self._field = field
        self._values = values

    def __len__(self) -> int:
        return len(self._values)

    @overload
    def __getitem__(self, index: int) -> ModelT: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[ModelT]: ...

    def __getitem__(self, index: int | slice) -> ModelT | Sequence[ModelT]:
        if isinstance(index, slice):
            return UnbuiltCandidates(self._cls, self._common, self._field, self._values[index])
        values = self._common.copy()
        values[self._field] = self._values[index]
        return unbuilt(self._cls, values)

    def __iter__(self) -> Iterator[ModelT]:
        cls, common, field = self._cls, self._common, self._field
        for value in self._values:
            values = common.copy()
            values[field] = value
            yield unbuilt(cls, values)
