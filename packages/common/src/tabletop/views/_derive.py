"""Deriving projected view types from models, with the plans that project values into them.

A *plan* says, per model and view kind, which fields need work (a policy, or hidden content
further down) and the derived view type. Models with nothing to hide keep their schema name:
a state's view holds their frozen twins (:mod:`tabletop.views._twins`), or their own type.
"""

from __future__ import annotations

import dataclasses
import inspect
import re
import threading
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Union, get_args, get_origin

from pydantic import BaseModel, Field, create_model
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from tabletop._action import GameAction
from tabletop._errors import GameDefinitionError
from tabletop._model import Model
from tabletop._visibility import (
    CountOnly,
    CustomVisibility,
    HostOnly,
    OrderOnly,
    OwnerOnly,
    Visibility,
)
from tabletop.views._analysis import (
    field_policy,
    hides_anything,
    holds_owners,
    is_union,
    owner_field,
    plain_of,
    unwrap_annotated,
)
from tabletop.views._twins import immutable_field, mark_derived

__all__ = [
    "DictNode",
    "FieldOp",
    "Kind",
    "ListNode",
    "ModelNode",
    "ModelPlan",
    "Node",
    "Op",
    "UnionNode",
    "plan_for",
    "source_of",
]


class Kind(Enum):
    """Which view a plan builds (the value is the derived types' name suffix)."""

    PLAYER = "PlayerView"
    SPECTATOR = "SpectatorView"
    SHARED = "View"
    ACTION = "ActionView"


class Op(Enum):
    """What projecting does to one field."""

    KEEP = "keep"  # public: only content further down needs work
    DROP = "drop"  # hidden from this kind of view: left out
    OWNER = "owner"  # the owner sees it; null for everyone else
    COUNT = "count"  # replaced by <name>_count
    COUNT_OWNER = "count-owner"  # <name>_count for all; the items for the owner, else null
    ORDER = "order"  # a list of nulls of the same length
    ORDER_OWNER = "order-owner"  # the items for the owner, else a list of nulls
    CUSTOM = "custom"  # the policy decides; null where it hides


@dataclass(frozen=True, slots=True)
class ModelNode:
    """A value that is a model needing work."""

    plan: ModelPlan


@dataclass(frozen=True, slots=True)
class ListNode:
    """A list whose items need work."""

    item: Node


@dataclass(frozen=True, slots=True)
class DictNode:
    """A dict whose values need work."""

    item: Node


@dataclass(frozen=True, slots=True)
class UnionNode:
    """A union: the member that needs work is picked by the value's runtime class."""

    options: tuple[tuple[type, Node], ...]

    def select(self, value: object) -> Node | None:
        """The node of the member ``value`` belongs to (None: nothing to do for it)."""
        cls = plain_of(type(value)) if isinstance(value, BaseModel) else type(value)
        for member, node in self.options:
            if cls is member or issubclass(cls, member):
                return node
        return None


Node = ModelNode | ListNode | DictNode | UnionNode
Step = tuple[str, "Op", Node | None, Visibility | None, str | None]


@dataclass(frozen=True, slots=True)
class FieldOp:
    """The work on one field: its op, the policy, the node for content further down."""

    name: str
    op: Op
    node: Node | None = None
    policy: Visibility | None = None
    count_name: str | None = None


@dataclass(frozen=True, slots=True)
class ModelPlan:
    """How to project one model for one kind of view, and the view type it projects into."""

    source: type[BaseModel]
    view_type: type[BaseModel]
    owner_field: str | None
    ops: tuple[FieldOp, ...]
    steps: tuple[Step, ...] = dataclasses.field(init=False, repr=False, compare=False)
    """The ops as plain tuples (``name, op, node, policy, count_name``), for fast loops."""

    def __post_init__(self) -> None:
        steps = tuple((op.name, op.op, op.node, op.policy, op.count_name) for op in self.ops)
        object.__setattr__(self, "steps", steps)


_PLANS: dict[tuple[type[BaseModel], Kind, bool], ModelPlan | None] = {}
_LOCK = threading.RLock()
"""Serialises derivation: a host projects from several threads, and a plan being derived by one
thread must not look like a recursive model to another (re-entrant: derivation recurses)."""
_IN_PROGRESS: set[tuple[type[BaseModel], Kind, bool]] = set()
_SOURCES: dict[type[BaseModel], type[BaseModel]] = {}
_DOCS = {
    Kind.PLAYER: "As one player sees it: what that player may not see is null or left out.",
    Kind.SPECTATOR: "As a spectator sees it: hidden information is left out or redacted.",
    Kind.SHARED: "As every player and spectator sees it (host-only fields left out).",
    Kind.ACTION: "As one perspective sees it: what the viewer may not see is null.",
}


def source_of(view_type: type[BaseModel]) -> type[BaseModel] | None:
    """The plain model a derived view type was derived from (None for other classes)."""
    return _SOURCES.get(view_type)


def _type_name(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def plan_for(model: type[BaseModel], kind: Kind, owned: bool = False) -> ModelPlan | None:
    """The plan of ``model`` in a view of ``kind`` (None: the model is shown as it is).

    ``owned``: an enclosing model already names an owner.

    Raises:
        GameDefinitionError: A visibility declaration cannot be honoured (a policy on a field
            type it does not fit, a recursive model hiding something, a count-field name clash).
    """
    plain = plain_of(model)
    owned = owned or owner_field(plain) is not None
    if kind is Kind.PLAYER and not owned and not holds_owners(plain):
        kind = Kind.SPECTATOR  # nobody can own anything here: every perspective sees the same
    key = (plain, kind, owned)
    if key in _PLANS:
        return _PLANS[key]
    with _LOCK:
        return _plan_locked(plain, kind, owned, key)


def _plan_locked(
    plain: type[BaseModel], kind: Kind, owned: bool, key: tuple[type[BaseModel], Kind, bool]
) -> ModelPlan | None:
    if key in _PLANS:  # another thread derived it while this one waited
        return _PLANS[key]
    if not hides_anything(plain):
        _PLANS[key] = None
        return None
    if key in _IN_PROGRESS:
        raise _error(plain, "a recursive model cannot hide fields")
    _IN_PROGRESS.add(key)
    try:
        plan = _derive(plain, kind, owned)
    finally:
        _IN_PROGRESS.discard(key)
    _PLANS[key] = plan
    return plan


def _error(model: type[BaseModel], problem: str) -> GameDefinitionError:
    return GameDefinitionError(model.__qualname__, [f"{model.__qualname__}: {problem}"])


def _derive(model: type[BaseModel], kind: Kind, owned: bool) -> ModelPlan | None:
    owner_sees = owned and kind in (Kind.PLAYER, Kind.ACTION)
    fields: dict[str, tuple[object, FieldInfo]] = {}
    ops: list[FieldOp] = []
    for name, field in model.model_fields.items():
        policy = field_policy(model, name)
        annotation = field.annotation
        if policy is None:
            node, new = _transform(annotation, kind, owned, model)
            if node is not None:
                ops.append(FieldOp(name, Op.KEEP, node))
                fields[name] = _field(field, new, keep_default=False)
            else:
                fields[name] = _field(field, annotation)
            continue
        if isinstance(policy, HostOnly) or (isinstance(policy, OwnerOnly) and not owner_sees):
            ops.append(FieldOp(name, Op.DROP, policy=policy))
            continue
        node, new = _transform(annotation, kind, owned, model)
        description = field.description or name
        if isinstance(policy, CustomVisibility):
            ops.append(FieldOp(name, Op.CUSTOM, node, policy))
            hint = f"{description} Null where the game's visibility rule hides it."
            fields[name] = _field(field, _nullable(new), default=None, description=hint)
        elif isinstance(policy, OwnerOnly):
            ops.append(FieldOp(name, Op.OWNER, node, policy))
            hint = f"{description} Null unless the viewer owns it (owner-only)."
            fields[name] = _field(field, _nullable(new), default=None, description=hint)
        elif isinstance(policy, CountOnly):
            count_name = _count_field(model, name, annotation)
            if owner_sees:
                ops.append(FieldOp(name, Op.COUNT_OWNER, node, policy, count_name))
                hint = f"{description} Null unless the viewer owns it; everyone sees `{count_name}`."
                fields[name] = _field(field, _nullable(new), default=None, description=hint)
            else:
                ops.append(FieldOp(name, Op.COUNT, None, policy, count_name))
            count_hint = f"How many items `{name}` holds (count-only: which items is hidden)."
            fields[count_name] = (int, Field(ge=0, description=count_hint))
        elif isinstance(policy, OrderOnly):
            item = _list_item(model, name, annotation)
            if owner_sees:
                item_node, item_type = _transform(item, kind, owned, model)
                items = None if item_node is None else ListNode(item_node)
                ops.append(FieldOp(name, Op.ORDER_OWNER, items, policy))
                hint = f"{description} Each item is null unless the viewer owns it (order-only)."
                fields[name] = _field(field, list[_nullable(item_type)], description=hint)  # type: ignore[misc]
            else:
                ops.append(FieldOp(name, Op.ORDER, None, policy))
                hint = f"{description} Only the positions show: every item is null (order-only)."
                fields[name] = _field(field, list[None], description=hint)
        else:  # a Visibility subclass the framework does not know
            raise _error(model, f"{name}: unknown visibility policy {policy!r}")
    if not ops:
        return None
    base: type[BaseModel] = GameAction if issubclass(model, GameAction) else Model
    summary = inspect.cleandoc(model.__doc__ or model.__name__)
    frozen = kind is not Kind.ACTION
    if frozen:  # a state's view: frozen, tuples for lists, so seats may share its immutable parts
        fields = {name: immutable_field(annotation, info) for name, (annotation, info) in fields.items()}
    view_type = create_model(  # type: ignore[call-overload]
        f"{_type_name(model.__name__)}{kind.value}",
        __base__=base,
        __doc__=f"{summary}\n\n{_DOCS[kind]}",
        __module__=model.__module__,
        __cls_kwargs__={"frozen": True} if frozen else None,
        **fields,
    )
    _SOURCES[view_type] = model
    mark_derived(view_type)
    return ModelPlan(model, view_type, owner_field(model), tuple(ops))


def _nullable(annotation: object) -> object:
    return Union[annotation, None]  # noqa: UP007 - built at run time


def _count_field(model: type[BaseModel], name: str, annotation: object) -> str:
    count_name = f"{name}_count"
    if count_name in model.model_fields:
        raise _error(model, f"{name} is count-only, but {count_name!r} is already a field")
    inner = unwrap_annotated(annotation)
    origin = get_origin(inner) or inner
    sized = isinstance(origin, type) and (
        origin in (list, dict) or (issubclass(origin, BaseModel) and hasattr(origin, "__len__"))
    )
    if not sized:
        raise _error(model, f"{name} is count-only but is not a list, a dict or a sized model")
    return count_name


def _list_item(model: type[BaseModel], name: str, annotation: object) -> object:
    inner = unwrap_annotated(annotation)
    if get_origin(inner) is not list:
        raise _error(model, f"{name} is order-only but is not a list")
    return get_args(inner)[0]


def _transform(
    annotation: object, kind: Kind, owned: bool, where: type[BaseModel]
) -> tuple[Node | None, object]:
    """The node (None: nothing to do) and the view annotation of a type expression."""
    if isinstance(annotation, type):
        if not issubclass(annotation, BaseModel):
            return None, annotation
        plan = plan_for(annotation, kind, owned)
        return (None, annotation) if plan is None else (ModelNode(plan), plan.view_type)
    origin = get_origin(annotation)
    args = get_args(annotation)
    if origin is None or not args:
        return None, annotation
    if origin is Annotated:
        node, inner = _transform(args[0], kind, owned, where)
        metadata = tuple(m for m in annotation.__metadata__ if not isinstance(m, Visibility))  # type: ignore[attr-defined]
        return (None, annotation) if node is None else (node, Annotated[(inner, *metadata)])
    if origin is list:
        node, item = _transform(args[0], kind, owned, where)
        return (None, annotation) if node is None else (ListNode(node), list[item])  # type: ignore[valid-type]
    if origin is dict:
        node, value = _transform(args[1], kind, owned, where)
        return (None, annotation) if node is None else (DictNode(node), dict[args[0], value])  # type: ignore[valid-type]
    if is_union(annotation):
        options: list[tuple[type, Node]] = []
        members: list[object] = []
        for arg in args:
            node, member = _transform(arg, kind, owned, where)
            members.append(member)
            if isinstance(node, UnionNode) and is_union(unwrap_annotated(arg)):
                options.extend(node.options)  # a nested union, e.g. Annotated[A | B, discriminator] | None
            elif node is not None:
                options.append((_runtime_class(arg, where), node))
        if not options:
            return None, annotation
        if len({cls for cls, _ in options}) < len(options):
            raise _error(where, f"cannot tell apart the members of {annotation} that hide fields")
        return UnionNode(tuple(options)), Union[tuple(members)]  # noqa: UP007
    for arg in args:
        node, _ = _transform(arg, kind, owned, where)
        if node is not None:
            raise _error(where, f"{annotation}: hidden fields inside {origin} are not supported")
    return None, annotation


def _runtime_class(annotation: object, where: type[BaseModel]) -> type:
    inner = unwrap_annotated(annotation)
    if isinstance(inner, type):
        return plain_of(inner) if issubclass(inner, BaseModel) else inner
    origin = get_origin(inner)
    if origin in (list, dict):
        return origin  # type: ignore[no-any-return]
    raise _error(where, f"cannot tell which union member {annotation} a value belongs to")


def _field(
    field: FieldInfo,
    annotation: object,
    *,
    keep_default: bool = True,  # False: only a None default or an empty list/dict factory stays
    default: object = PydanticUndefined,
    description: str | None = None,
) -> tuple[object, FieldInfo]:
    """A view field: ``field``'s settings and constraints with a new annotation (policies dropped)."""
    attributes = {
        key: value
        for key, value in field.asdict()["attributes"].items()
        if value is not None and key not in ("default", "default_factory", "repr")
    }
    if default is not PydanticUndefined:
        attributes["default"] = default
    elif keep_default or field.default is None or field.default_factory in (list, dict):
        if field.default is not PydanticUndefined:
            attributes["default"] = field.default
        elif field.default_factory is not None:
            attributes["default_factory"] = field.default_factory
    if description is not None:
        attributes["description"] = description
    metadata = tuple(m for m in field.metadata if not isinstance(m, Visibility))
    annotated = Annotated[(annotation, *metadata)] if metadata else annotation
    return annotated, Field(**attributes)
