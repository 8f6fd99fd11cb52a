"""Compiled projectors: build a view straight from the state, field by field, once per plan.

The reference projection dumps the state, redacts the dump and validates it into the view type.
A projector does the same work in one pass without dumping or validating: per view field it
knows, from the plan, whether to copy the state's value (with the structural copier of the
view field's type: immutable values shared, containers and models rebuilt, hydrated models
turned into their plain type), project it further down, hide it, count it or blank its items.
The view it builds equals the reference one. A plan the projector cannot read (a union whose
members hide fields, a type the copier does not know) has no projector and takes the
reference path.

Each projector has two compiled functions: ``build`` makes one perspective's view, and
``build_seats`` the views of several perspectives at once. The latter reads every field once,
computes what no perspective changes (immutable values, counts) once into a template, and per
perspective copies the template and adds only what depends on the viewer or must not be
shared (hidden or owner-only fields, fresh copies of mutable values, nested views).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from tabletop._copier import UnreadableError, copier, fields_set, shares, value_copier
from tabletop._visibility import Perspective, Viewer
from tabletop.views._analysis import is_union, plain_of, unwrap_annotated
from tabletop.views._derive import DictNode, ListNode, ModelNode, ModelPlan, Node, Op, UnionNode
from tabletop.views._twins import converter, twin_source

__all__ = ["Projector", "projector"]

_Copy = Callable[[Any], Any]
_Build = Callable[[BaseModel, Perspective, "str | None", BaseModel], Any]
_BuildSeats = Callable[[BaseModel, Sequence[Perspective], "str | None", BaseModel], list[Any]]
_SLOTS = BaseModel.__dict__
_SCOPE: dict[str, object] = {
    "_Viewer": Viewer,
    "_new": object.__new__,
    "_set_dict": _SLOTS["__dict__"].__set__,
    "_fields_set": fields_set,
    "_set_extra": _SLOTS["__pydantic_extra__"].__set__,
    "_set_private": _SLOTS["__pydantic_private__"].__set__,
    "_enumerate": enumerate,
    "_len": len,
    "_list": list,
    "_tuple": tuple,
    "_set": set,
    "_dict": dict,
    "_zip": zip,
}
"""What every compiled function refers to (models are built the way pydantic's own copies are:
the field dict, the fields set and the empty extra and private slots)."""


class Projector:
    """Builds one plan's view type from instances of the plan's source model."""

    __slots__ = ("build", "build_seats", "frozen", "nested", "plan", "unions")

    def __init__(self, plan: ModelPlan) -> None:
        self.plan = plan
        self.frozen: bool = bool(plan.view_type.model_config.get("frozen"))
        """A state's view (frozen, tuples for lists, twins for models that hide nothing)."""
        self.nested: dict[int, Projector] = {}
        """The projectors of the plans further down, by the id of their plan."""
        self.unions: dict[int, _UnionProjector] = {}
        """The projectors of the unions further down, by the id of their node."""
        self.build: _Build = _unbuilt
        """The view of a value (an instance of the plan's source model) for a perspective,
        given the owner so far and the root being projected (compiled by :func:`projector`)."""
        self.build_seats: _BuildSeats = _unbuilt_seats
        """The views of a value for each of several perspectives, in their order (compiled by
        :func:`projector`); each view as ``build`` makes it, sharing no mutable part with another."""

    def node(
        self, node: Node, value: Any, perspective: Perspective, owner: str | None, root: BaseModel
    ) -> Any:
        """Project ``value`` by ``node`` (a model, or a list or dict of them)."""
        if type(node) is ModelNode:
            return self.nested[id(node.plan)].build(value, perspective, owner, root)
        if type(node) is ListNode:
            inner = node.item
            items = [
                None if item is None else self.node(inner, item, perspective, owner, root) for item in value
            ]
            return tuple(items) if self.frozen else items
        if type(node) is DictNode:
            inner = node.item
            return {
                key: None if item is None else self.node(inner, item, perspective, owner, root)
                for key, item in value.items()
            }
        if type(node) is UnionNode:
            return self.unions[id(node)](value, perspective, owner, root)
        raise _NotCompiledError


def _unbuilt(value: BaseModel, perspective: Perspective, owner: str | None, root: BaseModel) -> Any:
    raise _NotCompiledError


def _unbuilt_seats(
    value: BaseModel, perspectives: Sequence[Perspective], owner: str | None, root: BaseModel
) -> list[Any]:
    raise _NotCompiledError


class _NotCompiledError(Exception):
    """The plan holds something the projector does not build."""


class _UnionProjector:
    """Projects a value of a union of models by its runtime class, as the reference path does.

    A member that hides fields is built by its own projector; another member is copied into its
    plain model by the structural copier. Only compiled for a discriminated union of models, so
    the reference path's validation of the dumped value picks the same member; a value of a
    class the union does not name raises :class:`UnreadableError` (the reference path reads it).
    """

    __slots__ = ("builds", "classes", "copies")

    def __init__(self, builds: dict[type, Projector], copies: dict[type, _Copy]) -> None:
        self.builds = builds
        """Plain member class -> the projector of the member's plan (members that hide fields)."""
        self.copies = copies
        """Plain member class -> its copier (members that hide nothing)."""
        self.classes: dict[type, tuple[Projector | None, _Copy | None]] = {}
        """Runtime class -> how to project it (filled on first sight of each class)."""

    def _how(self, cls: type) -> tuple[Projector | None, _Copy | None]:
        how = self.classes.get(cls)
        if how is None:
            plain = plain_of(cls) if issubclass(cls, BaseModel) else cls
            if plain in self.builds:
                how = (self.builds[plain], None)
            elif plain in self.copies:
                how = (None, self.copies[plain])
            else:
                raise UnreadableError
            self.classes[cls] = how
        return how

    def __call__(self, value: Any, perspective: Perspective, owner: str | None, root: BaseModel) -> Any:
        build, copy = self._how(type(value))
        if build is not None:
            return build.build(value, perspective, owner, root)
        return copy(value)  # type: ignore[misc]


def _union_members(annotation: object, discriminated: bool) -> tuple[list[object], bool]:
    """The members of a (possibly optional, possibly nested) union, and whether pydantic picks
    every member by a discriminator (``discriminated``: this union declares one)."""
    choices = [arg for arg in get_args(annotation) if arg is not type(None)]
    told = discriminated or len(choices) <= 1
    members: list[object] = []
    for arg in choices:
        inner = unwrap_annotated(arg)
        if is_union(inner):
            metadata = getattr(arg, "__metadata__", ())
            here = any(isinstance(m, FieldInfo) and m.discriminator is not None for m in metadata)
            nested, deep = _union_members(inner, here)
            members.extend(nested)
            told = told and deep
        else:
            members.append(inner)
    return members, told


def _frozen_copy(annotation: object) -> _Copy:
    """The converter of a state view's value (:func:`converter`), identity for an immutable one."""
    try:
        made = converter(annotation)
    except TypeError:
        raise _NotCompiledError from None
    return _same if made is None else made


def _same(value: Any) -> Any:
    return value


def _union_projector(
    node: UnionNode, annotation: object, field: FieldInfo, owner: Projector, building: dict[int, Projector]
) -> _UnionProjector:
    """The projector of a union field (``annotation``: the view field's type)."""
    members, discriminated = _union_members(unwrap_annotated(annotation), field.discriminator is not None)
    if not discriminated or len(members) < 2:  # pydantic's choice of member could differ
        raise _NotCompiledError
    builds: dict[type, Projector] = {}
    for cls, option in node.options:
        if type(option) is not ModelNode or cls in builds:
            raise _NotCompiledError
        builds[cls] = owner.nested[id(option.plan)] = _compile(option.plan, building)
    views = {option.plan.view_type for _, option in node.options if type(option) is ModelNode}
    copies: dict[type, _Copy] = {}
    for member in members:
        if not isinstance(member, type) or not issubclass(member, BaseModel):
            raise _NotCompiledError
        if member in views:
            continue
        source = twin_source(member)
        plain = plain_of(member if source is None else source)
        if plain in builds or plain in copies:
            raise _NotCompiledError
        copies[plain] = _frozen_copy(member) if owner.frozen else copier(plain)
    built = _UnionProjector(builds, copies)
    owner.unions[id(node)] = built
    return built


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


@dataclass(slots=True)
class _Field:
    """The source of one view field's value."""

    name: str
    read: bool = True
    """Whether the state holds the field (read into ``x<index>`` first); not so for a count."""
    shared: str | None = None
    """The expression of a value every perspective sees the same and may share (immutable)."""
    seat: str | None = None
    """The expression of a value built per perspective (``perspective``, ``owns``)."""
    column: str | None = None
    """For ``build_seats``: the expression computing the field for every perspective at once
    (a list with one value per perspective), and ``seat`` reads its ``k``-th value."""
    column_seat: str | None = None
    """For ``build_seats``: the per-perspective expression reading ``column`` (named ``{col}``)."""
    by_owner: bool = False
    """``seat`` depends on the perspective only through ``owns`` (an owner-only value)."""


class _Writer:
    """The sources of one plan's build functions, and the values they refer to."""

    def __init__(self, projector: Projector) -> None:
        self.projector = projector
        self.scope: dict[str, object] = dict(_SCOPE)

    def name(self, value: object) -> str:
        key = f"_v{len(self.scope)}"
        self.scope[key] = value
        return key

    def build(self, node: Node) -> str:
        """The name of the projector of a model node's plan."""
        assert type(node) is ModelNode
        return self.name(self.projector.nested[id(node.plan)])

    def visible_value(self, node: Node | None, copy: _Copy | None, annotation: object, item: str) -> str:
        """The expression of a visible, non-null ``item`` for one perspective."""
        if node is None:
            return item if copy is None else self.copy(copy, annotation, item)
        if type(node) is ModelNode:
            return f"{self.build(node)}.build({item}, perspective, owner, root)"
        if type(node) is ListNode and type(node.item) is ModelNode:
            build = self.build(node.item)
            items = f"[None if i is None else {build}.build(i, perspective, owner, root) for i in {item}]"
            return f"_tuple({items})" if self.projector.frozen else items
        if type(node) is UnionNode:
            return f"{self.name(self.projector.unions[id(node)])}({item}, perspective, owner, root)"
        return f"_self.node({self.name(node)}, {item}, perspective, owner, root)"

    def copy(self, copy: _Copy, annotation: object, item: str) -> str:
        """The expression copying a non-null ``item`` of ``annotation`` as ``copy`` (its value
        copier) does: inline for a list, set or dict of immutable values, else by a call."""
        inner = unwrap_annotated(annotation)
        if is_union(inner):
            members = [arg for arg in get_args(inner) if arg is not type(None)]
            inner = unwrap_annotated(members[0]) if len(members) == 1 else inner
        origin = get_origin(inner)
        args = get_args(inner)
        if (origin is list or origin is set) and len(args) == 1 and shares(args[0]):
            return f"_{origin.__name__}({item})"
        if origin is dict and len(args) == 2 and shares(args[0]) and shares(args[1]):
            return f"_dict({item})"
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return f"{self.name(copier(inner))}({item})"
        return f"{self.name(copy)}({item})"

    def column(self, node: Node, item: str) -> tuple[str, str] | None:
        """For a public field projected further down: the expression of every perspective's
        value at once, and the expression of perspective ``k``'s value in it (named ``{col}``)."""
        if type(node) is ModelNode:
            return f"{self.build(node)}.build_seats({item}, perspectives, owner, root)", "{col}[k]"
        if type(node) is ListNode and type(node.item) is ModelNode:
            build = self.build(node.item)
            items = (
                f"[nones if i is None else {build}.build_seats(i, perspectives, owner, root) for i in {item}]"
            )
            seq, empty = ("_tuple", "()") if self.projector.frozen else ("_list", "[]")
            every = (
                f"([{seq}(seat) for seat in _zip(*{items})] if {item} else [{empty} for _ in perspectives])"
            )
            return every, "{col}[k]"  # the items' views transposed: one list per perspective
        return None  # deeper shapes: built per perspective


def _compile(plan: ModelPlan, building: dict[int, Projector]) -> Projector:
    built = building.get(id(plan))
    if built is not None:
        return built
    built = building[id(plan)] = Projector(plan)
    writer = _Writer(built)
    fields = _fields(plan, built, building, writer)
    writer.scope["_view_type"] = plan.view_type
    writer.scope["_names"] = frozenset(plan.view_type.__pydantic_fields__)
    writer.scope["_self"] = built
    owner = [] if plan.owner_field is None else [f"    owner = getattr(value, {plan.owner_field!r})"]
    reads = [f"    x{index} = d[{field.name!r}]" for index, field in enumerate(fields) if field.read]
    single = [
        "def build(value, perspective, owner, root):",
        "    d = value.__dict__",
        *owner,
        *reads,
        "    owns = owner is not None and owner == perspective",
        "    values = {",
        *(f"        {field.name!r}: {field.shared or field.seat}," for field in fields),
        "    }",
        *_NEW_VIEW,
        "    return view",
    ]
    columns = [
        f"    c{index} = None if x{index} is None else {field.column}"
        for index, field in enumerate(fields)
        if field.column is not None
    ]
    per_seat = [
        f"        values[{field.name!r}] = {_per_seat(index, field)}"
        for index, field in enumerate(fields)
        if field.seat is not None
    ]
    template = ", ".join(f"{field.name!r}: {field.shared or 'None'}" for field in fields)
    nones = ["    nones = (None,) * _len(perspectives)"] if any("nones" in line for line in columns) else []
    loop = "k, perspective in _enumerate(perspectives)" if columns else "perspective in perspectives"
    owns = (
        ["        owns = owner is not None and owner == perspective"]
        if any("owns" in line for line in per_seat)
        else []
    )
    several = [
        "def build_seats(value, perspectives, owner, root):",
        "    d = value.__dict__",
        *owner,
        *reads,
        *nones,
        *columns,
        f"    template = {{{template}}}",
        "    views = []",
        f"    for {loop}:",
        *owns,
        "        values = template.copy()",
        *per_seat,
        *(f"    {line}" for line in _NEW_VIEW),
        "        views.append(view)",
        "    return views",
    ]
    if (
        built.frozen
        and not columns
        and shares(plan.view_type)
        and all(field.by_owner for field in fields if field.seat is not None)
    ):  # an immutable view that differs only for its owner: one for the owner, one for the rest
        several = [
            "def build_seats(value, perspectives, owner, root):",
            "    d = value.__dict__",
            *owner,
            *reads,
            f"    template = {{{template}}}",
            "    views = []",
            "    made = {}",
            "    for perspective in perspectives:",
            "        owns = owner is not None and owner == perspective",
            "        view = made.get(owns)",
            "        if view is None:",
            "            values = template.copy()",
            *(f"    {line}" for line in per_seat),
            *(f"        {line}" for line in _NEW_VIEW),
            "            made[owns] = view",
            "        views.append(view)",
            "    return views",
        ]
    source = "\n".join([*single, "", *several])
    code = compile(source, f"<projector of {plan.view_type.__qualname__}>", "exec")
    exec(code, writer.scope)  # the source is built above from the plan's own field names
    built.build = writer.scope["build"]  # type: ignore[assignment]
    built.build_seats = writer.scope["build_seats"]  # type: ignore[assignment]
    return built


_NEW_VIEW = (
    "    view = _new(_view_type)",
    "    _set_dict(view, values)",
    "    _fields_set(view, set(_names))",
    "    _set_extra(view, None)",
    "    _set_private(view, None)",
)


def _per_seat(index: int, field: _Field) -> str:
    if field.column is None:
        return str(field.seat)
    column = f"c{index}"
    return f"None if {column} is None else {str(field.column_seat).format(col=column)}"


def _fields(
    plan: ModelPlan, built: Projector, building: dict[int, Projector], writer: _Writer
) -> list[_Field]:
    """Where each view field's value comes from (the state's field ``x<index>`` is read first)."""
    view_fields = plan.view_type.__pydantic_fields__
    source_fields = plan.source.__pydantic_fields__
    by_source = {op.name: op for op in plan.ops}
    counted = {op.count_name: op for op in plan.ops if op.count_name is not None}
    fields: list[_Field] = []
    for name, field in view_fields.items():
        item = f"x{len(fields)}"
        if name in counted:
            fields.append(_Field(name, read=False, shared=f"_len(d[{counted[name].name!r}])"))
            continue
        if name not in source_fields:
            raise _NotCompiledError
        found = by_source.get(name)
        nones = "(None,)" if built.frozen else "[None]"
        if found is not None and found.op is Op.ORDER:  # only the length shows: nothing to copy
            blank = f"{nones} * _len({item})"
            fields.append(_Field(name, shared=blank) if built.frozen else _Field(name, seat=blank))
            continue
        node = None if found is None else found.node
        if type(node) is UnionNode:
            node = _optional_model(node, field.annotation)
        if type(node) is UnionNode:
            _union_projector(node, field.annotation, field, built, building)
        else:
            _collect(node, built, building)
        op = None if found is None else found.op
        if node is None and built.frozen:  # a state's view: the value converted (immutable: once)
            convert = _frozen_copy(field.annotation)
            value = item if convert is _same else f"{writer.name(convert)}({item})"
            visible = f"None if {item} is None else {value}"
            immutable = shares(field.annotation)
            copy = None
        else:
            copy = value_copier(field.annotation) if node is None else None
            if node is None and copy is None:
                raise _NotCompiledError
            if copy is not None and shares(field.annotation):
                copy = None  # immutable values: the view holds the state's own
            built_value = writer.visible_value(node, copy, field.annotation, item)
            visible = f"None if {item} is None else {built_value}"
            immutable = node is None and copy is None
        if op is None or op is Op.KEEP:
            if immutable:
                fields.append(_Field(name, shared=item if visible.endswith(f"else {item}") else visible))
            elif node is not None and (column := writer.column(node, item)) is not None:
                fields.append(_Field(name, seat=visible, column=column[0], column_seat=column[1]))
            else:
                fields.append(_Field(name, seat=visible))
        elif op is Op.OWNER or op is Op.COUNT_OWNER:
            fields.append(_Field(name, seat=f"({visible}) if owns else None", by_owner=node is None))
        elif op is Op.ORDER_OWNER:
            blank = f"{nones} * _len({item})"
            fields.append(_Field(name, seat=f"({visible}) if owns else {blank}", by_owner=node is None))
        elif op is Op.CUSTOM:
            policy = writer.name(found.policy)  # type: ignore[union-attr]
            rule = f"{policy}.visible_to(_Viewer(perspective, owner, value, root))"
            fields.append(_Field(name, seat=f"({visible}) if {rule} else None"))
        else:  # a dropped or count-only field is no view field
            raise _NotCompiledError
    return fields


def _optional_model(node: UnionNode, annotation: object) -> Node:
    """The model node of an optional model (``Metadata | None``): the one member, so pydantic has
    no member to choose; any other union stays as it is."""
    if len(node.options) != 1:
        return node
    option = node.options[0][1]
    members, _ = _union_members(unwrap_annotated(annotation), False)
    if type(option) is not ModelNode or members != [option.plan.view_type]:
        return node
    return option


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
