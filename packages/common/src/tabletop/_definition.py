"""Assembling a game definition, checking it whole, and drawing its state graph."""

from __future__ import annotations

import types
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Generic, TypeVar, cast, get_args

from tabletop._action import GameAction
from tabletop._determinizer import Determinizer
from tabletop._errors import GameDefinitionError
from tabletop._game import GameConfig
from tabletop._hydration import Hydrated
from tabletop._machine import AnyState, HydratedAction, MachineContext, StateHandler
from tabletop._parser import ActionParser, literal_tag
from tabletop._state import PlayerState

__all__ = ["GameDefinition"]

StateT = TypeVar("StateT", bound=AnyState)
MachineStateT = TypeVar("MachineStateT", bound=StrEnum)
ConfigT = TypeVar("ConfigT", bound=GameConfig)


def _hydrated_state_type(state_type: type[StateT]) -> type[StateT]:
    """The state type itself if it is hydrated, else a hydrated subclass derived from it."""
    if Hydrated in state_type.__mro__:
        return state_type
    bases = (state_type, Hydrated[state_type])  # type: ignore[valid-type]
    module = state_type.__module__
    derived = types.new_class(
        f"Hydrated{state_type.__name__}", bases, exec_body=lambda ns: ns.update(__module__=module)
    )
    return cast(type[StateT], derived)


class GameDefinition(Generic[StateT, ConfigT]):
    """Everything the engine needs to run one game, checked as a whole when built.

    Args:
        name: The game's registry name (its entry-point name), e.g. ``"sample"``.
        state_type: The game state model (plain or hydrated; a hydrated class is derived if
            needed, so nested components come out hydrated).
        config_type: The game's config model; every field must have a default.
        machine_states: The game's ``MachineState`` enum.
        initial_state: Where the machine starts.
        action_types: The game's ``ActionType`` enum.
        actions: One hydrated action class per action type.
        handlers: One handler instance per machine state.
        setup: The initializer: fills in game-specific state after the fixed fields are set,
            drawing randomness from ``ctx.prng`` in a fixed, documented order.
        min_players: Fewest seats the game supports.
        max_players: Most seats the game supports.
        logic_version: Semantic version of the rules and models (bump major on breaking change).
        determinizer: For a game with hidden information: samples a full state consistent with
            one seat's projected view (see :class:`tabletop.bots.Determinizer`), so that search
            bots (:class:`tabletop.bots.MctsBot`) play from what their seat may see. None for a
            game without hidden information (or one no search bot plays).

    Raises:
        GameDefinitionError: Naming every problem found: a state without a handler, a handler
            for an unknown state, an action type without a model, a model for an unknown type,
            an accepted action type without a model, a declared edge to an unknown state, a
            state unreachable from the initial state.
    """

    def __init__(
        self,
        *,
        name: str,
        state_type: type[StateT],
        config_type: type[ConfigT],
        machine_states: type[MachineStateT],
        initial_state: MachineStateT,
        action_types: type[StrEnum],
        actions: Sequence[type[HydratedAction[GameAction, StateT, ConfigT]]],
        handlers: Mapping[MachineStateT, StateHandler[StateT, ConfigT]],
        setup: Callable[[MachineContext[StateT, ConfigT]], None] | None = None,
        min_players: int = 1,
        max_players: int = 8,
        logic_version: str = "1.0.0",
        determinizer: Determinizer[StateT] | None = None,
    ) -> None:
        self.name = name
        self.state_type = _hydrated_state_type(state_type)
        self.config_type = config_type
        self.machine_states: type[StrEnum] = machine_states
        self.initial_state: StrEnum = initial_state
        self.action_types = action_types
        self.actions = tuple(actions)
        self.handlers: dict[StrEnum, StateHandler[StateT, ConfigT]] = {  # noqa: C416 - widens the key type
            state: handler for state, handler in handlers.items()
        }
        self.setup = setup
        self.min_players = min_players
        self.max_players = max_players
        self.logic_version = logic_version
        self.determinizer = determinizer
        self.action_by_type: dict[str, type[HydratedAction[GameAction, StateT, ConfigT]]] = {}
        self._check()
        self.parser: ActionParser[HydratedAction[GameAction, StateT, ConfigT]] = ActionParser(self.actions)

    @property
    def player_state_type(self) -> type[PlayerState]:
        """The game's player-state model, read off the state's ``players`` field."""
        (item,) = get_args(self.state_type.model_fields["players"].annotation)
        assert isinstance(item, type)
        assert issubclass(item, PlayerState)
        return item

    @property
    def edges(self) -> dict[StrEnum, tuple[StrEnum, ...]]:
        """Declared transitions: each state and the states its handler may move to."""
        return {
            state: tuple(self.handlers[state].transitions_to)
            for state in self.machine_states
            if state in self.handlers
        }

    def _check(self) -> None:
        problems: list[str] = []
        states = set(self.machine_states)
        if self.initial_state not in states:
            problems.append(f"initial state {self.initial_state!r} is not a {self.machine_states.__name__}")
        problems += [
            f"state {s.value!r} has no handler" for s in self.machine_states if s not in self.handlers
        ]
        problems += [f"handler for unknown state {s!r}" for s in self.handlers if s not in states]
        for action in self.actions:
            tag = literal_tag(action)
            if tag is None:
                problems.append(f"action model {action.__name__} does not narrow 'type' to one Literal tag")
            elif tag not in set(self.action_types):
                problems.append(f"action model {action.__name__} has type {tag!r}, not an action type")
            elif tag in self.action_by_type:
                other = self.action_by_type[tag].__name__
                problems.append(f"action type {tag!r} has two models: {other} and {action.__name__}")
            else:
                self.action_by_type[tag] = action
            if not issubclass(cast(type, action), HydratedAction):
                problems.append(f"action model {action.__name__} is not a HydratedAction")
        problems += [
            f"action type {t.value!r} has no model"
            for t in self.action_types
            if t.value not in self.action_by_type
        ]
        for state, handler in self.handlers.items():
            label = getattr(state, "value", state)
            problems += [
                f"state {label!r} accepts {getattr(t, 'value', t)!r}, which has no action model"
                for t in handler.accepts
                if str(t) not in self.action_by_type
            ]
            problems += [
                f"state {label!r} declares an edge to unknown state {target!r}"
                for target in handler.transitions_to
                if target not in states
            ]
            if handler.accepts and not handler.transitions_to:
                problems.append(f"state {label!r} accepts actions but declares no next state")
        if self.initial_state in states:
            reached = self._reachable()
            problems += [
                f"state {s.value!r} is unreachable from {self.initial_state.value!r}"
                for s in self.machine_states
                if s not in reached
            ]
        if not 1 <= self.min_players <= self.max_players:
            problems.append(f"player range {self.min_players}..{self.max_players} is empty")
        problems += self._config_problems()
        if problems:
            raise GameDefinitionError(self.name, problems)

    def _config_problems(self) -> Iterable[str]:
        for field_name, field in self.config_type.model_fields.items():
            if field.is_required():
                yield f"config option {field_name!r} has no default"

    def _reachable(self) -> set[StrEnum]:
        seen = {self.initial_state}
        todo = deque([self.initial_state])
        while todo:
            handler = self.handlers.get(todo.popleft())
            for target in () if handler is None else handler.transitions_to:
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return seen

    def diagram(self) -> str:
        """Return the declared state graph as a mermaid ``stateDiagram-v2``."""
        from transitions.extensions import GraphMachine

        transitions = [
            {
                "trigger": "/".join(sorted(str(t) for t in self.handlers[s].accepts)) or "next",
                "source": s.value,
                "dest": target.value,
            }
            for s, targets in self.edges.items()
            for target in targets
        ]
        machine = GraphMachine(
            states=[s.value for s in self.machine_states],
            transitions=transitions,
            initial=self.initial_state.value,
            auto_transitions=False,
            graph_engine="mermaid",
            title=self.name,
        )
        return str(machine.get_graph().draw(None))
