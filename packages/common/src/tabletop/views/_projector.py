"""Compiled projectors: build a view straight from the state, field by field, once per plan.

The reference projection dumps the state, redacts the dump and validates it into the view type.
A projector does the same work in one pass without dumping or validating: per view field it
knows, from the plan, whether to copy the state's value (with the structural copier of the
view field's type: immutable values shared, containers and models rebuilt, hydrated models
turned into their plain type), project it further down, hide it, count it or blank its items.
The view it builds equals the reference one. A plan the projector cannot read (a union whose
members hide fields, a type the copier does not know) has no projector and takes the
reference path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from tabletop._copier import fields_set, shares, value_copier
from tabletop._visibility import Perspective, Viewer
from tabletop.views._derive import DictNode, ListNode, ModelNode, ModelPlan, Node, Op

__all__ = ["Projector", "projector"]

_new = object.__new__
_set = object.__setattr__
_Copy = Callable[[Any], Any]


class Projector:
    """Builds one plan's view type from instances of the plan's source model."""

    __slots__ = ("build", "nested", "plan")

    def __init__(self, plan: ModelPlan) -> None:
        self.plan = plan
        self.nested: dict[int, Projector] = {}
        """The projectors of the plans further down, by the id of their plan."""
        self.build: Callable[[BaseModel, Perspective, str | None, BaseModel], Any] = _unbuilt
        """The view of a value (an instance of the plan's source model) for a perspective,
        given the owner so far and the root being projected (compiled by :func:`projector`)."""

    def node(
        self, node: Node, value: Any, perspective: Perspective, owner: str | None, root: BaseModel
    ) -> Any:
        """Project ``value`` by ``node`` (a model, or a list or dict of them)."""
        if type(node) is ModelNode:
            return self.nested[id(node.plan)].build(value, perspective, owner, root)
        if type(node) is ListNode:
            inner = node.item
            return [
                None if item is None else self.node(inner, item, perspective, owner, root) for item in value
            ]
        if type(node) is DictNode:
            inner = node.item
            return {
                key: None if item is None else self.node(inner, item, perspective, owner, root)
                for key, item in value.items()
            }
        raise _NotCompiledError  # unions are not compiled (see projector)


def _unbuilt(value: BaseModel, perspective: Perspective, owner: str | None, root: BaseModel) -> Any:
    raise _NotCompiledError


class _NotCompiledError(Exception):
    """The plan holds something the projector does not build."""


_PROJECTORS: dict[int, tuple[ModelPlan, Projector | None]] = {}


def projector(plan: ModelPlan) -> Projector | None:
    """The compiled projector of ``plan``, or None if it takes the reference path."""
    known = _PROJECTORS.get(id(plan))
    if known is not None and known[0] is plan:
        return known[1]
    try:
        built: Projector | None = _compile(plan, {})
    except _NotCompiledError:
        built = None
    _PROJECTORS[id(plan)] = (plan, built)
    return built


class _Writer:
    """The source of one plan's build function, and the values it refers to."""

    def __init__(self, projector: Projector) -> None:
        self.projector = projector
        self.scope: dict[str, object] = {
            "_Viewer": Viewer,
            "_new": _new,
            "_set": _set,
            "_fields_set": fields_set,
        }
        self.lines: list[str] = []

    def name(self, value: object) -> str:
        key = f"_v{len(self.scope)}"
        self.scope[key] = value
        return key

    def visible_value(self, node: Node | None, copy: _Copy | None) -> str:
        """The expression of a visible, non-null ``item``."""
        if node is None:
            return "item" if copy is None else f"{self.name(copy)}(item)"
        if type(node) is ModelNode:
            return f"{self.name(self.projector.nested[id(node.plan)])}.build(item, perspective, owner, root)"
        if type(node) is ListNode and type(node.item) is ModelNode:
            build = self.name(self.projector.nested[id(node.item.plan)])
            return f"[None if i is None else {build}.build(i, perspective, owner, root) for i in item]"
        return f"_self.node({self.name(node)}, item, perspective, owner, root)"


def _compile(plan: ModelPlan, building: dict[int, Projector]) -> Projector:
    built = building.get(id(plan))
    if built is not None:
        return built
    built = building[id(plan)] = Projector(plan)
    view_fields = plan.view_type.__pydantic_fields__
    source_fields = plan.source.__pydantic_fields__
    by_source = {op.name: op for op in plan.ops}
    counted = {op.count_name: op for op in plan.ops if op.count_name is not None}
    writer = _Writer(built)
    lines = writer.lines
    lines.append("def build(value, perspective, owner, root):")
    lines.append("    d = value.__dict__")
    if plan.owner_field is not None:
        lines.append(f"    owner = getattr(value, {plan.owner_field!r})")
    lines.append("    owns = owner is not None and owner == perspective")
    lines.append("    values = {}")
    for name, field in view_fields.items():
        target = f"values[{name!r}]"
        if name in counted:
            lines.append(f"    {target} = len(d[{counted[name].name!r}])")
            continue
        if name not in source_fields:
            raise _NotCompiledError
        found = by_source.get(name)
        node = None if found is None else found.node
        _collect(node, built, building)
        copy = value_copier(field.annotation) if node is None else None
        if node is None and copy is None:
            raise _NotCompiledError
        if copy is not None and shares(field.annotation):
            copy = None  # immutable values: the view holds the state's own
        lines.append(f"    item = d[{name!r}]")
        visible = f"None if item is None else {writer.visible_value(node, copy)}"
        op = None if found is None else found.op
        if op is None or op is Op.KEEP:
            lines.append(f"    {target} = {visible}")
        elif op is Op.OWNER or op is Op.COUNT_OWNER:
            lines.append(f"    {target} = ({visible}) if owns else None")
        elif op is Op.ORDER:
            lines.append(f"    {target} = [None] * len(item)")
        elif op is Op.ORDER_OWNER:
            lines.append(f"    {target} = ({visible}) if owns else [None] * len(item)")
        elif op is Op.CUSTOM:
            policy = writer.name(found.policy)  # type: ignore[union-attr]
            rule = f"{policy}.visible_to(_Viewer(perspective, owner, value, root))"
            lines.append(f"    {target} = ({visible}) if {rule} else None")
        else:  # a dropped or count-only field is no view field
            raise _NotCompiledError
    writer.scope["_view_type"] = plan.view_type
    writer.scope["_names"] = frozenset(view_fields)
    writer.scope["_self"] = built
    lines += [
        "    view = _new(_view_type)",
        "    _set(view, '__dict__', values)",
        "    _fields_set(view, set(_names))",
        "    _set(view, '__pydantic_extra__', None)",
        "    _set(view, '__pydantic_private__', None)",
        "    return view",
    ]
    code = compile("\n".join(lines), f"<projector of {plan.view_type.__qualname__}>", "exec")
    exec(code, writer.scope)  # the source is built above from the plan's own field names
    built.build = writer.scope["build"]  # type: ignore[assignment]
    return built


def _collect(node: Node | None, owner: Projector, building: dict[int, Projector]) -> None:
    if node is None:
        return
    if type(node) is ModelNode:
        owner.nested[id(node.plan)] = _compile(node.plan, building)
        return
    if type(node) is ListNode or type(node) is DictNode:
        _collect(node.item, owner, building)
        return
    raise _NotCompiledError  # a union: the reference path picks its member
