"""Processing actions on a working state: rules, transitions, records and system-action cascades."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from enum import StrEnum
from typing import Generic, TypeVar, cast

from tabletop._action import GameAction
from tabletop._admission import admit
from tabletop._chance import HydratedChanceAction, resolve_chance
from tabletop._checksum import next_checksum
from tabletop._definition import GameDefinition
from tabletop._errors import GameDefinitionError, IllegalActionError
from tabletop._game import GameConfig
from tabletop._machine import AnyState, HydratedAction, MachineContext, StateHandler
from tabletop._model import writes_directly
from tabletop.clocks._expired import HydratedTimeExpired, lose_on_time
from tabletop.clocks._expiry import ExpiryRules, forfeit_rule

__all__ = ["ActionProcessor"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

Action = HydratedAction[GameAction, StateT, ConfigT]

_Targets = Mapping[str, Collection[StrEnum]]  # built once: subscripting a generic per action costs
_COUNTED = ("action_count", "action_checksum")
_MOVED = ("action_count", "action_checksum", "machine_state")


class ActionProcessor(Generic[StateT, ConfigT]):
    """Applies parsed actions to a working state, with what the definition declares worked out once.

    Args:
        definition: The game whose actions are processed.
        max_cascade: The most actions one call may record (a runaway cascade is a definition error).
    """

    __slots__ = (
        "_accepted",
        "_chance",
        "_direct_actions",
        "_direct_writes",
        "_forfeit",
        "_handlers",
        "_targets",
        "_unchecked",
        "max_cascade",
        "name",
    )

    def __init__(self, definition: GameDefinition[StateT, ConfigT], max_cascade: int) -> None:
        self.name = definition.name
        self.max_cascade = max_cascade
        self._handlers = definition.handlers
        self._direct_writes = writes_directly(definition.state_type)
        self._direct_actions = frozenset(
            action_class for action_class in definition.actions if writes_directly(action_class)
        )
        self._targets: dict[StrEnum, _Targets] = {
            state: cast(_Targets, handler.action_targets) for state, handler in self._handlers.items()
        }
        self._accepted: dict[StrEnum, frozenset[str] | None] = {
            state: frozenset(str(t) for t in handler.accepts)
            if type(handler).is_valid_action is StateHandler.is_valid_action
            else None
            for state, handler in self._handlers.items()
        }
        """Per machine state, the action types it accepts, if its handler keeps the default test."""
        self._chance: dict[type, bool] = {}
        """Per action class met: whether it is a chance point (isinstance on a model class is slow)."""
        self._unchecked = frozenset(
            action_class for action_class in definition.actions if action_class.check is HydratedAction.check
        )
        """The game's action classes that keep the default ``check`` (which accepts everything)."""
        self._forfeit = forfeit_rule(cast(ExpiryRules[AnyState] | None, definition.expiry))
        """Who wins when a seat loses on time: the game's rule, else the framework's default."""

    def drain(
        self,
        ctx: MachineContext[StateT, ConfigT],
        first: Action[StateT, ConfigT] | None,
        *,
        processed: bool = False,
        pause: bool = False,
    ) -> tuple[Action[StateT, ConfigT], ...]:
        """Process ``first`` (unless ``processed``) and then every system action queued.

        ``pause``: stop before a queued chance point whose outcome is not decided yet, leaving
        it (and what follows it) in ``ctx.queue`` (an adapter's chance node).
        """
        queue = ctx.queue
        process = self.process
        if first is not None:
            if not processed:
                process(first, ctx)
                if not queue:
                    return (first,)
            recorded = [first]
        else:
            recorded = []
        limit = self.max_cascade
        while queue:
            if pause and self._is_chance(type(queue[0])) and queue[0].__dict__.get("outcome") is None:
                break
            if len(recorded) >= limit:
                raise GameDefinitionError(
                    self.name,
                    [f"one run recorded {len(recorded)} actions without settling (max_cascade)"],
                )
            action = queue.pop(0)  # a cascade queues a few actions: a list is cheaper than a deque
            process(action, ctx)
            recorded.append(action)
        return tuple(recorded)

    def _is_chance(self, action_class: type) -> bool:
        """True if ``action_class`` is a chance point (one the definition does not list too)."""
        known = self._chance.get(action_class)
        if known is None:
            known = self._chance[action_class] = issubclass(action_class, HydratedChanceAction)
        return known

    def process(
        self, action: Action[StateT, ConfigT], ctx: MachineContext[StateT, ConfigT], checked: bool = False
    ) -> None:
        """Admit, check and apply ``action`` on ``ctx.state``, record it and follow the transition.

        ``checked``: the caller ran ``action.check`` on this very state already (a search's own
        draw); it is not run twice.
        """
        state = ctx.state
        admit(action, state)
        values = state.__dict__
        given = action.__dict__
        current = values["machine_state"]
        handler = self._handlers[current]
        accepted = self._accepted[current]  # None: the handler decides itself
        if not (given["type"] in accepted if accepted is not None else handler.is_valid_action(action, ctx)):
            raise IllegalActionError(
                "action-not-allowed",
                f"{action.type} is not allowed in state {current.value}",
                path="type",
            )
        if self._is_chance(type(action)):
            resolve_chance(action, ctx, ctx.chance, self.name)  # type: ignore[arg-type]  # checked above
        if not checked and type(action) not in self._unchecked:
            action.check(ctx)
        action.apply(ctx)
        following = handler.on_action(action, ctx)
        if following is not None and (
            following not in handler.transitions_to
            or following not in self._targets[current].get(given["type"], handler.transitions_to)
        ):
            where = f"state {current.value!r} moved to {str(following)!r} after {action.type}"
            raise GameDefinitionError(self.name, [f"{where}, which it does not declare"])
        index = values["action_count"]
        if self._direct_writes and type(action) in self._direct_actions:
            # What pydantic's __setattr__ does for these models, without its per-write dispatch.
            given["index"] = index
            action.__pydantic_fields_set__.add("index")
            values["action_count"] = index + 1
            values["action_checksum"] = next_checksum(values["action_checksum"], given["id"], index)
            if following is None:
                state.__pydantic_fields_set__.update(_COUNTED)
            else:
                values["machine_state"] = following
                state.__pydantic_fields_set__.update(_MOVED)
        else:
            action.index = index
            state.action_count = index + 1
            state.action_checksum = next_checksum(state.action_checksum, action.id, index)
            if following is not None:
                state.machine_state = following
        if following is not None:  # None: stay, without entering again
            self._handlers[following].enter(ctx)

    def record_host(self, action: Action[StateT, ConfigT], ctx: MachineContext[StateT, ConfigT]) -> None:
        """Admit and apply a host action on ``ctx.state`` and record it, outside the handlers.

        The framework applies it, in whatever machine state the game is: no handler accepts,
        checks or follows it, and the machine state stays where it is.
        """
        if type(action) is not HydratedTimeExpired:
            raise IllegalActionError(
                "not-a-host-action", f"{action.type} is not an action a host records", path="type"
            )
        state = ctx.state
        admit(action, state)
        lose_on_time(action, cast(MachineContext[AnyState, GameConfig], ctx), self._forfeit, self.name)
        index = state.action_count
        action.index = index
        state.action_count = index + 1
        state.action_checksum = next_checksum(state.action_checksum, action.id, index)
