"""Reading visibility declarations: which models hide anything, who owns a model's fields."""

from __future__ import annotations

import threading
import types
from collections.abc import Callable, Iterator
from typing import Annotated, Union, get_args, get_origin

from pydantic import BaseModel

from tabletop._action import GameAction
from tabletop._errors import GameDefinitionError
from tabletop._hydration import _plain_model_of
from tabletop._state import GameState, PlayerState
from tabletop._visibility import Public, Visibility, owner_marked, policy_of

__all__ = [
    "declares_visibility",
    "field_policy",
    "hides_anything",
    "holds_owners",
    "is_union",
    "models_in",
    "owner_field",
    "plain_of",
    "unwrap_annotated",
]

_PLAIN: dict[type[BaseModel], type[BaseModel]] = {}
_HIDES: dict[type[BaseModel], bool] = {}
_HOLDS_OWNERS: dict[type[BaseModel], bool] = {}
_DEEP_LOCK = threading.RLock()
"""Guards ``_HIDES`` and ``_HOLDS_OWNERS``: while an answer is worked out its model holds a
provisional ``False`` (for a model that refers to itself), which no other thread may read."""
_OWNER_FIELD: dict[type[BaseModel], str | None] = {}


def plain_of(cls: type[BaseModel]) -> type[BaseModel]:
    """The plain model behind a (possibly hydrated, possibly parametrized) model class."""
    plain = _PLAIN.get(cls)
    if plain is None:
        plain = _plain_model_of(cls) if hasattr(cls, "__plain_model__") else cls
        _PLAIN[cls] = plain
    return plain


def unwrap_annotated(annotation: object) -> object:
    """``Annotated[X, ...]`` -> ``X`` (repeatedly); anything else unchanged."""
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


def models_in(annotation: object) -> Iterator[type[BaseModel]]:
    """Every model class a type expression mentions (inside lists, dicts, unions, ...)."""
    if isinstance(annotation, type):
        if issubclass(annotation, BaseModel):
            yield plain_of(annotation)
        return
    for arg in get_args(annotation):
        yield from models_in(arg)


def field_policy(model: type[BaseModel], name: str) -> Visibility | None:
    """The non-public policy of one field (None when everyone sees it).

    Raises:
        GameDefinitionError: The field declares several policies.
    """
    field = model.model_fields[name]
    try:
        policy = policy_of(field)
    except TypeError as exc:
        raise GameDefinitionError(model.__qualname__, [f"{model.__qualname__}.{name}: {exc}"]) from exc
    if _nested_policy(field.annotation):
        problem = f"{model.__qualname__}.{name}: a visibility policy applies to a whole field, not inside it"
        raise GameDefinitionError(model.__qualname__, [problem])
    return None if policy is None or isinstance(policy, Public) else policy


def _nested_policy(annotation: object) -> bool:
    if get_origin(annotation) is Annotated and any(
        isinstance(item, Visibility) or (isinstance(item, type) and issubclass(item, Visibility))
        for item in annotation.__metadata__  # type: ignore[attr-defined]
    ):
        return True
    return any(_nested_policy(arg) for arg in get_args(annotation))


def _deep(
    model: type[BaseModel], cache: dict[type[BaseModel], bool], test: Callable[[type[BaseModel]], bool]
) -> bool:
    with _DEEP_LOCK:  # (reentrant: the recursion below takes it again)
        if model in cache:
            return cache[model]
        cache[model] = False  # a model that refers to itself does not decide its own answer
        answer = test(model) or any(
            _deep(nested, cache, test)
            for field in model.model_fields.values()
            for nested in models_in(field.annotation)
        )
        cache[model] = answer
        return answer


def _declares_here(model: type[BaseModel]) -> bool:
    return any(field_policy(model, name) is not None for name in model.model_fields)


def _owns_here(model: type[BaseModel]) -> bool:
    return owner_field(model) is not None


def hides_anything(model: type[BaseModel]) -> bool:
    """True if the model or a model inside it declares a non-public field (``prng`` included)."""
    return _deep(plain_of(model), _HIDES, _declares_here)


def holds_owners(model: type[BaseModel]) -> bool:
    """True if the model or a model inside it owns its fields (player states, owner-marked models)."""
    return _deep(plain_of(model), _HOLDS_OWNERS, _owns_here)


def declares_visibility(model: type[BaseModel]) -> bool:
    """True if a game's model declares hidden information of its own.

    Every game state hides ``prng`` (declared by the framework); that alone does not count.

    Example:
        >>> from tabletop.games import load
        >>> declares_visibility(load("sample").state_type)
        False
    """
    plain = plain_of(model)
    for name, field in plain.model_fields.items():
        if issubclass(plain, GameState) and name == "prng":
            continue
        if field_policy(plain, name) is not None:
            return True
        if any(hides_anything(nested) for nested in models_in(field.annotation)):
            return True
    return False


def owner_field(model: type[BaseModel]) -> str | None:
    """The field naming the player who owns ``model``'s fields, if the model has an owner.

    A field marked with :class:`~tabletop.views.Owner`; otherwise ``player_id`` for player states
    and actions; otherwise None (the fields are owned by whatever encloses the model).

    Raises:
        GameDefinitionError: Several fields are marked.
    """
    if model in _OWNER_FIELD:
        return _OWNER_FIELD[model]
    marked = [name for name, field in model.model_fields.items() if owner_marked(field)]
    if len(marked) > 1:
        problem = f"{model.__qualname__}: several fields are marked Owner(): {marked}"
        raise GameDefinitionError(model.__qualname__, [problem])
    found: str | None = marked[0] if marked else None
    if found is None and issubclass(model, PlayerState | GameAction):
        found = "player_id"
    _OWNER_FIELD[model] = found
    return found


def is_union(annotation: object) -> bool:
    """True for ``X | Y`` and ``Union[X, Y]``."""
    return get_origin(annotation) in (Union, types.UnionType)
