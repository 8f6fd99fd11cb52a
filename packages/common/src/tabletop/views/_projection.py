"""Projecting states and actions into what one perspective may see."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from tabletop._action import GameAction
from tabletop._copier import UnreadableError, copier, fields_set
from tabletop._machine import AnyState
from tabletop._model import Model
from tabletop._visibility import SPECTATOR, Perspective, Spectator, Viewer
from tabletop.views._analysis import declares_visibility, plain_of
from tabletop.views._derive import (
    DictNode,
    Kind,
    ListNode,
    ModelNode,
    ModelPlan,
    Node,
    Op,
    plan_for,
)
from tabletop.views._projector import projector

__all__ = [
    "action_plan",
    "action_view_type",
    "project",
    "project_action",
    "project_action_reference",
    "project_log",
    "project_seats",
    "state_plan",
    "view_type",
]

ActionT = TypeVar("ActionT", bound=GameAction)

_SHARED: dict[type[BaseModel], bool] = {}
_STATE_PLANS: dict[tuple[type[BaseModel], bool], ModelPlan] = {}
_KEEP, _DROP, _OWNER, _COUNT, _COUNT_OWNER, _ORDER, _ORDER_OWNER = (
    Op.KEEP,
    Op.DROP,
    Op.OWNER,
    Op.COUNT,
    Op.COUNT_OWNER,
    Op.ORDER,
    Op.ORDER_OWNER,
)


def state_plan(state_type: type[BaseModel], *, spectator: bool) -> ModelPlan:
    """The plan of a game state type for a player's (or a spectator's) view."""
    known = _STATE_PLANS.get((state_type, spectator))
    if known is not None:
        return known
    plain = plain_of(state_type)
    shared = _SHARED.get(plain)
    if shared is None:
        shared = _SHARED[plain] = not declares_visibility(plain)
    kind = Kind.SHARED if shared else Kind.SPECTATOR if spectator else Kind.PLAYER
    plan = plan_for(plain, kind)
    if plan is None:  # only a model that is not a game state hides nothing at all
        msg = f"{plain.__qualname__} is not a game state (it has no hidden prng)"
        raise TypeError(msg)
    _STATE_PLANS[state_type, spectator] = plan
    return plan


def action_plan(action_type: type[BaseModel]) -> ModelPlan | None:
    """The plan of an action type (None: every perspective sees the action as recorded)."""
    return plan_for(action_type, Kind.ACTION)


def view_type(state_type: type[AnyState], *, spectator: bool = False) -> type[Model]:
    """The projected type of ``state_type``'s views: a player's, or with ``spectator`` a spectator's.

    Derived once per state type and cached: a frozen plain model (``extra="forbid"``, the state's
    field descriptions, tuples for lists) named ``<State>PlayerView`` / ``<State>SpectatorView``,
    or ``<State>View`` for both when the game declares no hidden information of its own (only
    ``prng`` is left out). A nested model that hides nothing becomes its frozen twin (a frozen
    subclass with the same name, schema and JSON), or keeps its own type if the twin would
    still hold a mutable value or could differ from it.
    """
    return cast(type[Model], state_plan(state_type, spectator=spectator).view_type)


def action_view_type(action_type: type[GameAction]) -> type[GameAction]:
    """The projected type of an action type: ``<Action>ActionView``, or its plain model if it hides nothing.

    One type serves every perspective: fields the viewer may not see are null.
    """
    plan = action_plan(action_type)
    return cast(type[GameAction], plain_of(action_type) if plan is None else plan.view_type)


def project(state: AnyState, perspective: Perspective) -> Model:
    """The view of ``state`` that ``perspective`` (a player id or ``SPECTATOR``) may see.

    Returns a fresh instance of :func:`view_type` (never aliasing the state's mutable parts):
    ``prng`` and host-only fields are left out, other players' owner-only fields are null (left
    out for a spectator), count-only fields become ``<name>_count``, order-only lists become
    nulls. The view is frozen and holds tuples for lists (its JSON is the same); a nested model
    that hides nothing is its frozen twin, a subclass of the game's model.

    Raises:
        ValueError: ``perspective`` is not one of the state's players.
    """
    spectator = perspective is SPECTATOR
    if not spectator and perspective not in [player.player_id for player in state.players]:
        msg = f"{perspective!r} is not a player of game {state.game_id!r}"
        raise ValueError(msg)
    view = _compiled(state_plan(type(state), spectator=spectator), state, perspective)
    return cast(Model, view) if view is not None else project_reference(state, perspective)


def project_seats(
    state: AnyState, perspectives: Iterable[Perspective] | None = None
) -> dict[Perspective, Model]:
    """The views of ``state`` for several perspectives at once: each as :func:`project` builds it.

    Cheaper than calling :func:`project` per perspective (what every seat is shown after an
    action, say): the state is read once, and what no perspective changes (immutable values,
    counts, the tuples and frozen models of public parts) is built once and shared; only
    hidden and owner-dependent parts, and fresh copies of mutable values, are built per
    perspective (a part that every seat but its owner sees alike is built twice). Views are
    frozen, so the shared parts cannot change; the views share no mutable part with the state
    or with each other, so changing one seat's view never changes another's.

    Args:
        state: The state to project.
        perspectives: Player ids and/or :data:`SPECTATOR`; by default every player of the state,
            in seating order. A perspective named twice gets one view.

    Returns:
        Each perspective's view (an instance of :func:`view_type`), in the order asked for.

    Raises:
        ValueError: A perspective is not one of the state's players.
    """
    players = [player.player_id for player in state.players]
    wanted = players if perspectives is None else list(dict.fromkeys(perspectives))
    if wanted == players:  # every seat in seating order (the usual call): nothing to check
        every: dict[Perspective, Model] = dict(zip(players, _project_players(state, players), strict=True))
        return every
    seats = (
        [seat for seat in wanted if seat is not SPECTATOR] if SPECTATOR in wanted else cast(list[str], wanted)
    )
    if not set(players).issuperset(seats):
        stranger = next(seat for seat in seats if seat not in players)
        msg = f"{stranger!r} is not a player of game {state.game_id!r}"
        raise ValueError(msg)
    views: dict[Perspective, Model] = dict(zip(seats, _project_players(state, seats), strict=True))
    if len(seats) == len(wanted):
        return views
    views[SPECTATOR] = project(state, SPECTATOR)
    return {perspective: views[perspective] for perspective in wanted}


def _project_players(state: AnyState, seats: Sequence[str]) -> list[Model]:
    """The views of ``state`` for players ``seats`` (all of them players of the state)."""
    if not seats:
        return []
    built = projector(state_plan(type(state), spectator=False))
    if built is not None:
        try:
            views: list[Model] = built.build_seats(state, seats, None, state)
        except (UnreadableError, AttributeError, KeyError, TypeError):
            pass  # a value the projector cannot read: the reference path below reads it (or says why)
        else:
            return views
    return [project_reference(state, seat) for seat in seats]


def project_reference(state: AnyState, perspective: Perspective) -> Model:
    """:func:`project` the reference way: dump the state, redact the dump, validate the view.

    What the compiled projector (:mod:`tabletop.views._projector`) must equal.
    """
    spectator = isinstance(perspective, Spectator)
    plan = state_plan(type(state), spectator=spectator)
    data = state.model_dump()
    _redact_model(plan, state, data, perspective, None, state)
    return cast(Model, plan.view_type.model_validate(data))


def project_action(action: ActionT, perspective: Perspective) -> ActionT:
    """The action as ``perspective`` may see it, e.g. in the action log it receives.

    Payload and metadata fields the viewer may not see are null (owner-only ones are seen by
    the action's player, or the player its :class:`~tabletop.views.Owner` field names).
    Returns a fresh plain model: an instance of :func:`action_view_type`, with the same fields
    and tags as the action. It is typed as the action's own type, so a type checker follows
    ``.metadata.<field>`` of the game's action; a field the viewer may not see holds None.

    Example:
        ``project_action(harness.last(HydratedDrawCard), "p2").metadata`` is typed
        ``DrawCardMetadata | None``; its ``card`` is None for every seat but the drawer's.
    """
    plan = action_plan(type(action))
    if plan is None:
        plain = plain_of(type(action))
        copy = copier(plain)(action)  # a fresh plain model, as validating the dump gives
        fields_set(copy, set(plain.__pydantic_fields__))
        return cast(ActionT, copy)
    view = _compiled(plan, action, perspective)
    return cast(ActionT, view) if view is not None else project_action_reference(action, perspective)


def project_action_reference(action: ActionT, perspective: Perspective) -> ActionT:
    """:func:`project_action` the reference way: dump the action, redact the dump, validate the view.

    What the compiled path must equal.
    """
    data = action.model_dump()
    plan = action_plan(type(action))
    if plan is None:
        return cast(ActionT, plain_of(type(action)).model_validate(data))
    _redact_model(plan, action, data, perspective, None, action)
    return cast(ActionT, plan.view_type.model_validate(data))


def project_log(actions: Iterable[ActionT], perspective: Perspective) -> list[ActionT]:
    """The action log ``perspective`` receives: every action through :func:`project_action`,
    each typed as the action it projects."""
    return [project_action(action, perspective) for action in actions]


def _redact_model(
    plan: ModelPlan,
    value: BaseModel,
    data: dict[str, object],
    perspective: Perspective,
    owner: str | None,
    root: BaseModel,
) -> None:
    """Turn ``data`` (``value`` dumped) into the view's data, in place."""
    if plan.owner_field is not None:
        owner = getattr(value, plan.owner_field)
    owns = owner is not None and owner == perspective
    for name, op, node, policy, count_name in plan.steps:
        if op is _DROP:
            del data[name]
            continue
        item = getattr(value, name)
        if op is _KEEP:
            visible = True
        elif op is _OWNER:
            visible = owns
        elif op is _COUNT or op is _COUNT_OWNER:
            data[count_name] = len(item)  # type: ignore[index]
            if op is _COUNT:
                del data[name]
                continue
            visible = owns
        elif op is _ORDER or op is _ORDER_OWNER:
            if op is _ORDER or not owns:
                data[name] = [None] * len(item)
                continue
            visible = True
        else:
            visible = policy.visible_to(Viewer(perspective, owner, value, root))  # type: ignore[union-attr]
        if not visible:
            data[name] = None
        elif node is not None and item is not None:
            _redact(node, item, data[name], perspective, owner, root)


def _redact(
    node: Node, value: Any, data: Any, perspective: Perspective, owner: str | None, root: BaseModel
) -> None:
    if type(node) is ModelNode:
        _redact_model(node.plan, value, data, perspective, owner, root)
    elif type(node) is ListNode:
        item_node = node.item
        for item, item_data in zip(value, data, strict=True):
            if item is not None:
                _redact(item_node, item, item_data, perspective, owner, root)
    elif type(node) is DictNode:
        item_node = node.item
        for item, item_data in zip(value.values(), data.values(), strict=True):
            if item is not None:
                _redact(item_node, item, item_data, perspective, owner, root)
    else:
        chosen = node.select(value)  # type: ignore[union-attr]
        if chosen is not None:
            _redact(chosen, value, data, perspective, owner, root)


def _compiled(plan: ModelPlan, subject: BaseModel, perspective: Perspective) -> BaseModel | None:
    """``subject`` projected by the plan's compiled projector, or None when there is none or it
    cannot read a value (then the reference path reads it, or says why)."""
    built = projector(plan)
    if built is None:
        return None
    try:
        view: BaseModel = built.build(subject, perspective, None, subject)
    except (UnreadableError, AttributeError, KeyError, TypeError):
        return None
    return view
