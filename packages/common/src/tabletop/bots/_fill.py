"""Determinization by structural copy: a full state built from a view and the hidden values drawn for it.

The view is walked alongside the plan that projected it (:mod:`tabletop.views._derive`): what the
view shows is copied into the state's own types by the compiled copiers (immutable values
shared, lists, dicts and models rebuilt), what it does not show is asked of the determinizer,
and the models are assembled without validating them again (a copy of valid values, and hidden
values of the declared types, make a valid state).
"""

from __future__ import annotations

import contextlib
import random
import types
from collections.abc import Callable
from typing import Annotated, Any, TypeVar, Union, cast, get_args, get_origin

from pydantic import BaseModel, TypeAdapter
from pydantic_core import to_json

from tabletop._copier import UnreadableError, _readable, copier, fields_set, shares, value_copier
from tabletop._machine import AnyState
from tabletop._prng import PrngState
from tabletop.views._analysis import plain_of
from tabletop.views._derive import DictNode, ListNode, ModelNode, ModelPlan, Node, Op, UnionNode
from tabletop.views._projection import state_plan

__all__ = ["Fill", "fill_hidden"]

StateT = TypeVar("StateT", bound=AnyState)

Fill = Callable[[BaseModel, str], object]
"""``fill(part, name)``: the hidden value of field ``name`` of the model the view shows as ``part``."""

_NEVER_SHOWN = (Op.DROP, Op.COUNT, Op.ORDER)
_SET_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__


def fill_hidden(view: BaseModel, state_type: type[StateT], fill: Fill, rng: random.Random) -> StateT:
    """A full state of ``state_type``: a structural copy of ``view`` with its hidden values filled in.

    The building block of a determinizer (:class:`~tabletop.bots.Determinizer`). Every value the
    view shows is copied into the state's own types (hydrated where the state is), sharing only
    immutable parts with the view, without dumping or validating it again (only a model whose
    validators may change data is validated, as a copy of it would be). Every value it
    does not show is asked of ``fill(part, name)``: ``part`` is the view's model that lacks (or
    nulls) the field ``name``, e.g. another player's view for ``"hand"`` (with its
    ``hand_count``). ``fill`` is called, in field order, for:

    - a field left out of the view (host-only, owner-only for a spectator, count-only items);
    - a null where the field is owner-only or custom (also where the real value is null, e.g.
      the seat's own empty optional field: ``fill`` returns None then);
    - an order-only list with a null in it (``fill`` returns the whole list).

    ``fill`` must return a value of the field's declared type; it is copied in, so it may be
    shared with anything. The state's PRNG, hidden from every view, gets a fresh seed drawn from
    ``rng`` after every ``fill`` call. Projecting the result for the view's perspective gives
    the view back if ``fill`` answers with values that perspective may not see (and nulls where
    it sees null); the view is never changed, and the result shares no mutable part with it.

    Args:
        view: A projected view of a ``state_type`` state (:func:`tabletop.views.project`), a
            player's or a spectator's.
        state_type: The state type to build, usually the game's hydrated state.
        fill: Gives each hidden value (the determinizer's sampling, from ``rng`` only).
        rng: The bot's generator, for the PRNG's fresh seed.

    Returns:
        A new ``state_type`` whose PRNG has drawn nothing yet.

    Raises:
        ValueError: ``view`` is not a view of a ``state_type`` state.

    Example:
        >>> import random
        >>> from typing import Annotated
        >>> from tabletop import GameState, PlayerState, PrngState
        >>> from tabletop.bots import fill_hidden
        >>> from tabletop.views import CountOnly, project
        >>> class Seat(PlayerState):
        ...     hand: Annotated[list[int], CountOnly()] = []
        >>> class Table(GameState[Seat, str]):
        ...     pass
        >>> table = Table(
        ...     id="t", game_id="g", players=[Seat(player_id="a", hand=[3]), Seat(player_id="b", hand=[5])],
        ...     prng=PrngState(seed=1), machine_state="Play",
        ... )
        >>> view = project(table, "a")
        >>> world = fill_hidden(view, Table, lambda part, name: [7], random.Random(1))
        >>> [seat.hand for seat in world.players], project(world, "a") == view
        ([[3], [7]], True)
    """
    plan = _plan_of(view, state_type)
    values = _fields(state_type, plan, view, fill, root=True)
    prng = PrngState(seed=rng.getrandbits(32))
    values["prng"] = _copy(state_type.model_fields["prng"].annotation, prng)
    state: StateT = _build(state_type, values)
    return state


def _plan_of(view: BaseModel, state_type: type[StateT]) -> ModelPlan:
    for spectator in (False, True):
        plan = state_plan(state_type, spectator=spectator)
        if type(view) is plan.view_type:
            return plan
    msg = f"a {type(view).__name__} is not a view of a {state_type.__name__}"
    raise ValueError(msg)


Step = tuple[str, object, Op | None, Node | None, bool]
_STEPS: dict[tuple[type[BaseModel], type[BaseModel]], tuple[Step, ...]] = {}


def _steps(cls: type[BaseModel], plan: ModelPlan) -> tuple[Step, ...]:
    """Per field of ``cls``: its name, annotation, the op and node of ``plan`` (None: untouched),
    and whether a value of it is immutable (shared as it is)."""
    key = (cls, plan.view_type)
    known = _STEPS.get(key)
    if known is None:
        ops = {op.name: (op.op, op.node) for op in plan.ops}
        known = tuple(
            (name, field.annotation, *ops.get(name, (None, None)), shares(field.annotation))
            for name, field in cls.__pydantic_fields__.items()
        )
        _STEPS[key] = known
    return known


def _model(cls: type[Any], plan: ModelPlan, part: BaseModel, fill: Fill) -> Any:
    return _build(cls, _fields(cls, plan, part, fill))


def _fields(
    cls: type[Any], plan: ModelPlan, part: BaseModel, fill: Fill, *, root: bool = False
) -> dict[str, object]:
    """The field values of a ``cls`` the view shows as ``part`` (a state's ``prng`` left None)."""
    shown = part.__dict__
    values: dict[str, object] = {}
    for name, annotation, op, node, immutable in _steps(cls, plan):
        if op is None:
            values[name] = shown[name] if immutable else _copy(annotation, shown[name])
        elif op is Op.KEEP:
            values[name] = _value(annotation, node, shown[name], fill)
        elif root and name == "prng":
            values[name] = None  # drawn from rng once every hidden value is in
        elif op in _NEVER_SHOWN or shown[name] is None or (op is Op.ORDER_OWNER and None in shown[name]):
            values[name] = _copy(annotation, fill(part, name))
        else:
            values[name] = _value(annotation, node, shown[name], fill)
    return values


_READABLE: dict[type[BaseModel], bool] = {}


def _build(cls: type[Any], values: dict[str, object]) -> Any:
    readable = _READABLE.get(cls)
    if readable is None:
        readable = _READABLE[cls] = _readable(cls)
    if not readable:  # a model with validators that may change data: pydantic builds it
        return cls.model_validate(values)
    built = object.__new__(cls)
    object.__setattr__(built, "__dict__", values)
    fields_set(built, set(values))
    _SET_EXTRA(built, None)
    _SET_PRIVATE(built, None)
    return built


def _value(annotation: object, node: Node | None, value: Any, fill: Fill) -> Any:
    """``value`` shown in the view (its content needing work as ``node`` says), as ``annotation``."""
    if node is None:
        return _copy(annotation, value)
    if value is None:
        return None
    if type(node) is ModelNode:
        return _model(_target(annotation, node.plan.source), node.plan, value, fill)
    if type(node) is ListNode:
        item = get_args(_container(annotation))[0]
        return [_value(item, node.item, entry, fill) for entry in value]
    if type(node) is DictNode:
        item = get_args(_container(annotation))[1]
        return {key: _value(item, node.item, entry, fill) for key, entry in value.items()}
    for _, option in cast(UnionNode, node).options:
        if isinstance(option, ModelNode) and type(value) is option.plan.view_type:
            return _value(annotation, option, value, fill)
    if isinstance(value, BaseModel):  # a member with nothing hidden: shown as it is
        target = _member(annotation, plain_of(type(value)))
        if target is not None:
            return _copy(target, value)
    return _copy(annotation, value)


def _unwrap(annotation: object) -> object:
    while get_origin(annotation) is Annotated:
        annotation = get_args(annotation)[0]
    return annotation


def _members(annotation: object) -> list[object]:
    annotation = _unwrap(annotation)
    if get_origin(annotation) in (Union, types.UnionType):
        return [member for arg in get_args(annotation) for member in _members(arg)]
    return [annotation]


def _container(annotation: object) -> object:
    """The list or dict type in ``annotation`` (``Annotated`` and ``| None`` taken off)."""
    return next(m for m in _members(annotation) if get_origin(m) in (list, dict))


_TARGETS: dict[tuple[object, type[BaseModel]], type[BaseModel] | None] = {}


def _member(annotation: object, source: type[BaseModel]) -> type[BaseModel] | None:
    """The model class of ``annotation`` whose plain model is ``source`` (the hydrated one, say)."""
    key = (annotation, source)
    if key not in _TARGETS:
        _TARGETS[key] = next(
            (
                member
                for member in _members(annotation)
                if isinstance(member, type) and issubclass(member, BaseModel) and plain_of(member) is source
            ),
            None,
        )
    return _TARGETS[key]


def _target(annotation: object, source: type[BaseModel]) -> type[BaseModel]:
    target = _member(annotation, source)
    if target is None:
        msg = f"{annotation} names no model for {source.__qualname__}"
        raise TypeError(msg)
    return target


_COPIES: dict[object, Callable[[Any], Any]] = {}


def _copy(annotation: object, value: object) -> Any:
    """``value`` (valid for ``annotation``) copied into ``annotation``'s types, sharing nothing mutable."""
    try:
        copy = _COPIES.get(annotation)
    except TypeError:  # an unhashable type expression
        return _revalidator(annotation)(value)
    if copy is None:
        copy = _COPIES[annotation] = _copier_of(annotation)
    try:
        return copy(value)
    except UnreadableError:  # a union member the copier does not name exactly
        return _revalidator(annotation)(value)


def _copier_of(annotation: object) -> Callable[[Any], Any]:
    target = _unwrap(annotation)
    if isinstance(target, type) and issubclass(target, BaseModel) and plain_of(target) is not target:
        return _Transcriber(target, plain_of(target))  # a hydrated model: the view holds its plain one
    return value_copier(annotation) or _revalidator(annotation)


class _Transcriber:
    """Copies a plain model (a view's turn manager, say) into its hydrated class, field by field.

    The copier would validate it (a plain instance is not one of the hydrated class); the fields
    are the same, so each is copied into the hydrated class's own field type instead.
    """

    __slots__ = ("copy", "fields", "plain", "target")

    def __init__(self, target: type[BaseModel], plain: type[BaseModel]) -> None:
        self.target = target
        self.plain = plain
        self.copy = copier(target)
        same = target.__pydantic_fields__.keys() == plain.__pydantic_fields__.keys()
        self.fields = (
            tuple((name, field.annotation) for name, field in target.__pydantic_fields__.items())
            if same
            else None
        )

    def __call__(self, value: Any) -> Any:
        if type(value) is not self.plain or self.fields is None:
            return self.copy(value)
        shown = value.__dict__
        return _build(self.target, {name: _copy(annotation, shown[name]) for name, annotation in self.fields})


_REVALIDATORS: dict[object, Callable[[Any], Any]] = {}


def _revalidator(annotation: object) -> Callable[[Any], Any]:
    """Dump and validate: for a value the structural copy cannot read (built once per annotation)."""
    try:
        known = _REVALIDATORS.get(annotation)
    except TypeError:  # an unhashable type expression: not kept
        known = None
    if known is None:
        adapter: TypeAdapter[Any] = TypeAdapter(cast(Any, annotation))

        def known(value: Any) -> Any:
            return adapter.validate_json(to_json(value))

        with contextlib.suppress(TypeError):  # an unhashable type expression: not kept
            _REVALIDATORS[annotation] = known
    return known
