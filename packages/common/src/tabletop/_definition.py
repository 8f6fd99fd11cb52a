"""Assembling a game definition, checking it whole, and drawing its state graph."""

from __future__ import annotations

import types
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import Generic, TypeVar, cast, get_args

from pydantic import BaseModel

from tabletop._action import GameAction
from tabletop._chance import HydratedChanceAction
from tabletop._determinizer import Determinizer
from tabletop._errors import GameDefinitionError
from tabletop._game import Game, GameConfig
from tabletop._hydration import Hydrated, _plain_model_of
from tabletop._machine import AnyState, HydratedAction, MachineContext, StateHandler
from tabletop._migration import Migration
from tabletop._parser import ActionParser, literal_tag
from tabletop._registry import action_enum, discover_actions, handler_config_type, in_enum_order
from tabletop._semver import parse_version
from tabletop._state import GameState, PlayerState
from tabletop._visibility import Public, policy_of
from tabletop.clocks._expired import TIME_EXPIRED, HydratedTimeExpired
from tabletop.clocks._expiry import ExpiryRules

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


def _hides_information(model: type[BaseModel]) -> bool:
    """True if ``model`` or a model inside it declares a non-public field, ``GameState.prng`` aside.

    The same answer as :func:`tabletop.views.declares_visibility` (a test holds them together),
    read from the field metadata alone so the definition does not depend on the views.
    """
    seen: set[type[BaseModel]] = set()
    todo = [model]
    while todo:
        current = todo.pop()
        plain = _plain_model_of(current) if hasattr(current, "__plain_model__") else current
        if plain in seen:
            continue
        seen.add(plain)
        for name, field in plain.model_fields.items():
            if name == "prng" and issubclass(plain, GameState):
                continue
            try:
                policy = policy_of(field)
            except TypeError:  # several policies: certainly not public (the views report it)
                return True
            if policy is not None and not isinstance(policy, Public):
                return True
            todo += _models_in(field.annotation)
    return False


def _models_in(annotation: object) -> list[type[BaseModel]]:
    if isinstance(annotation, type):
        return [annotation] if issubclass(annotation, BaseModel) else []
    return [model for arg in get_args(annotation) for model in _models_in(arg)]


def _chance_problems(action: type[HydratedChanceAction[GameAction, StateT, ConfigT]]) -> list[str]:
    """What a chance point's class lacks: an optional ``outcome`` field, its chances and space."""
    name = action.__name__
    problems = []
    field = action.model_fields.get("outcome")
    if field is None or field.is_required() or field.default is not None:
        problems.append(f"chance action {name} does not declare 'outcome: ... | None = None'")
    for method in ("chances", "chance_space"):
        if not any(
            method in vars(klass) for klass in action.__mro__[: action.__mro__.index(HydratedChanceAction)]
        ):
            problems.append(f"chance action {name} does not implement {method}")
    return problems


class GameDefinition(Generic[StateT, ConfigT]):
    """Everything the engine needs to run one game, checked as a whole when built.

    Args:
        name: The game's registry name (its entry-point name), e.g. ``"sample"``.
        state_type: The game state model (plain or hydrated; a hydrated class is derived if
            needed, so nested components come out hydrated).
        config_type: The game's config model; every field must have a default (default: the
            config the handlers are parametrized with, ``StateHandler[State, Config]``, else
            :class:`GameConfig`).
        initial_state: Where the machine starts (a ``MachineState`` member).
        handlers: One handler instance per machine state.
        machine_states: The game's ``MachineState`` enum (default: the enum of ``initial_state``).
        action_types: The game's ``ActionType`` enum (default: the enum the actions' ``Literal``
            tags, or else the handlers' ``accepts``, are members of).
        actions: One hydrated action class per action type (default: every action class
            defined in the modules of the game's ``actions`` package, the sibling of the package
            its state type lives in, e.g. ``tabletop_pig.actions``). Whatever the order given
            or found, ``self.actions`` follows the ``ActionType`` declaration order, and ends
            with the framework's own :class:`tabletop.clocks.TimeExpired` (the type name
            ``TimeExpired`` is reserved).
        setup: The initializer: fills in game-specific state after the fixed fields are set,
            drawing randomness from ``ctx.prng`` in a fixed, documented order.
        min_players: Fewest seats the game supports.
        max_players: Most seats the game supports.
        logic_version: Semantic version of the rules and models (bump major on breaking change).
        determinizer: For a game with hidden information: samples a full state consistent with
            one seat's projected view (see :class:`tabletop.bots.Determinizer`), so that search
            bots (:class:`tabletop.bots.MctsBot`) play from what their seat may see. None for a
            game without hidden information (or one no search bot plays).
        chance: True if the rules draw randomness during play that players must not foresee
            (dice rolled mid-game, cards drawn from a deck nobody sees). Such a game, and any
            game whose state declares hidden information (:attr:`hidden_information`, read off
            the view policies), can only be started with a PRNG key
            (:attr:`requires_prng_key`). Leave it False for a game that draws nothing, or draws
            only at setup what everybody sees at once (a shuffled seating order).
        invariants: The game's own consistency rules: given a state, one line per problem
            (empty when the state is consistent), e.g. that the 52 cards are all somewhere.
            :meth:`tabletop.GameEngine.load_state` checks them on every state a host loads
            (raising :class:`tabletop.InvalidStateError`), and ``tabletop simulate`` after every
            action. It may assume the state passed its schema and the framework's bookkeeping.
        migrations: The declared steps between logic versions (:class:`tabletop.Migration`), at
            most one from each version, none to a version above ``logic_version``. A host moves
            a match stored under an earlier version along them (see :mod:`tabletop.versions`).
        frozen_versions: Frozen copies of earlier versions of this game (their own
            definitions, with the same name and their own ``logic_version``) kept runnable
            beside this one: a host runs a match stored under such a version with its frozen
            copy instead of migrating it, so it finishes under the rules it started with.
        title: The game's display title, as the lobby shows it (e.g. ``"Go Fish"``); default:
            the name with its first letter capitalized and hyphens as spaces. Metadata, not
            rules: changing it changes no logic version.
        description: One short sentence about the game, shown in the lobby under its title.
        example_configs: Configs besides the default that the game is played with; the
            conformance suite plays each of them (``tests/conformance``), so options other than
            the defaults get played, replayed and leak-checked too.
        config_invariants: The game's rules that tie a state to its game's config, given a state
            and the config: one line per problem (e.g. Goofspiel's N cards, with N in the
            config). :meth:`tabletop.GameEngine.run` checks them on every call (keep them
            cheap), and ``load_state`` when given the game, raising
            :class:`tabletop.InvalidStateError` (``game-mismatch``).
        evaluator: A heuristic for an unfinished state: each player's expected reward (1 a win,
            0 a loss) by player id. Search bots (:class:`tabletop.bots.MctsBot`) score a rollout
            they cut off after ``max_rollout_actions`` with it, instead of as a draw, so a long
            game can be searched with short rollouts. None: a cut-off rollout is a draw (0.5).
        expiry: The game's own handling of a seat's time running out in a hosted match with a
            clock (:class:`tabletop.clocks.ExpiryRules`: its pass action, its forfeit rule).
            None: the framework's defaults (no pass; on forfeit every other seat wins).

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
        initial_state: MachineStateT,
        handlers: Mapping[MachineStateT, StateHandler[StateT, ConfigT]],
        config_type: type[ConfigT] | None = None,
        machine_states: type[MachineStateT] | None = None,
        action_types: type[StrEnum] | None = None,
        actions: Sequence[type[HydratedAction[GameAction, StateT, ConfigT]]] | None = None,
        setup: Callable[[MachineContext[StateT, ConfigT]], None] | None = None,
        min_players: int = 1,
        max_players: int = 8,
        logic_version: str = "1.0.0",
        determinizer: Determinizer[StateT] | None = None,
        chance: bool = False,
        invariants: Callable[[StateT], Iterable[str]] | None = None,
        migrations: Sequence[Migration] = (),
        frozen_versions: Sequence[GameDefinition[AnyState, GameConfig]] = (),
        title: str | None = None,
        description: str = "",
        example_configs: Sequence[ConfigT] = (),
        config_invariants: Callable[[StateT, ConfigT], Iterable[str]] | None = None,
        evaluator: Callable[[StateT], Mapping[str, float]] | None = None,
        expiry: ExpiryRules[StateT] | None = None,
    ) -> None:
        self.name = name
        self.title = title or (name[:1].upper() + name[1:]).replace("-", " ").replace("_", " ")
        self.description = description
        self.expiry: ExpiryRules[StateT] | None = expiry
        self.example_configs: tuple[ConfigT, ...] = tuple(example_configs)
        self.state_type = _hydrated_state_type(state_type)
        self.config_type = config_type or cast(type[ConfigT], handler_config_type(handlers.values()))
        self.machine_states: type[StrEnum] = machine_states or type(initial_state)
        self.initial_state: StrEnum = initial_state
        self.handlers: dict[StrEnum, StateHandler[StateT, ConfigT]] = {  # noqa: C416 - widens the key type
            state: handler for state, handler in handlers.items()
        }
        found = [  # (a copy of another definition's actions lists the framework's already)
            action
            for action in (actions if actions is not None else discover_actions(state_type))
            if action is not HydratedTimeExpired
        ]
        accepted = [t for handler in self.handlers.values() for t in handler.accepts]
        enum = action_types or action_enum(found, accepted)
        if enum is None:
            raise GameDefinitionError(name, ["no action types: pass action_types, or define actions"])
        self.action_types: type[StrEnum] = enum
        framework = cast(type[HydratedAction[GameAction, StateT, ConfigT]], HydratedTimeExpired)
        self.actions: tuple[type[HydratedAction[GameAction, StateT, ConfigT]], ...] = (
            *in_enum_order(cast(list[type[HydratedAction[GameAction, StateT, ConfigT]]], found), enum),
            framework,
        )
        """The game's action classes in ``ActionType`` order, then the framework's own
        (:class:`tabletop.clocks.TimeExpired`, which a host records when a seat loses on time)."""
        self.setup = setup
        self.min_players = min_players
        self.max_players = max_players
        self.logic_version = logic_version
        self.determinizer = determinizer
        self.chance_actions: tuple[type[HydratedChanceAction[GameAction, StateT, ConfigT]], ...] = tuple(
            action for action in self.actions if issubclass(action, HydratedChanceAction)
        )
        """The game's declared chance points, in ``ActionType`` order."""
        self.chance = chance or bool(self.chance_actions)
        self.invariants = invariants
        self.migrations: tuple[Migration, ...] = tuple(migrations)
        self.frozen_versions: dict[str, GameDefinition[AnyState, GameConfig]] = {
            frozen.logic_version: frozen for frozen in frozen_versions
        }
        self.config_invariants = config_invariants
        self.evaluator = evaluator
        self.hidden_information = _hides_information(self.state_type)
        """True if the state declares hidden information of its own (any non-public field but ``prng``)."""
        self.action_by_type: dict[str, type[HydratedAction[GameAction, StateT, ConfigT]]] = {}
        self._check()
        self.parser: ActionParser[HydratedAction[GameAction, StateT, ConfigT]] = ActionParser(self.actions)

    @property
    def requires_prng_key(self) -> bool:
        """True if the game may only start keyed: it has hidden information or ``chance``.

        ``GameEngine.start`` then refuses a game without a key unless the caller passes
        :data:`tabletop.UNKEYED` on purpose (reproducible fixtures).
        """
        return self.chance or self.hidden_information

    @property
    def game_type(self) -> type[Game[ConfigT]]:
        """``Game[config_type]``: the game model with this game's typed config.

        A host reads a stored game with it, config included:
        ``definition.game_type.model_validate_json(stored)``.
        """
        return cast("type[Game[ConfigT]]", Game.__class_getitem__(self.config_type))

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
            if action is HydratedTimeExpired:  # the framework's own, appended above
                self.action_by_type[TIME_EXPIRED] = cast(
                    type[HydratedAction[GameAction, StateT, ConfigT]], HydratedTimeExpired
                )
                continue
            if tag is None:
                problems.append(f"action model {action.__name__} does not narrow 'type' to one Literal tag")
            elif tag == TIME_EXPIRED:
                problems.append(
                    f"action model {action.__name__} has type {tag!r}, which the framework reserves "
                    "(a seat's forfeit on time, tabletop.clocks.TimeExpired)"
                )
            elif tag not in set(self.action_types):
                problems.append(f"action model {action.__name__} has type {tag!r}, not an action type")
            elif tag in self.action_by_type:
                other = self.action_by_type[tag].__name__
                problems.append(f"action type {tag!r} has two models: {other} and {action.__name__}")
            else:
                self.action_by_type[tag] = action
            if not issubclass(cast(type, action), HydratedAction):
                problems.append(f"action model {action.__name__} is not a HydratedAction")
            elif action.system_only and action.is_enumerable():
                problems.append(f"action model {action.__name__} is system-only but enumerates plays")
            if issubclass(action, HydratedChanceAction):
                problems += _chance_problems(action)
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
            for action_type, targets in handler.action_targets.items():
                tag = str(action_type)
                if action_type not in handler.accepts:
                    problems.append(f"state {label!r} declares targets for {tag!r}, which it does not accept")
                problems += [
                    f"state {label!r} lets {tag!r} move to {str(target)!r}, not in its transitions_to"
                    for target in targets
                    if target not in handler.transitions_to
                ]
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
        problems += self._version_problems()
        problems += [
            f"example config {n} is a {type(config).__name__}, not a {self.config_type.__name__}"
            for n, config in enumerate(self.example_configs)
            if not isinstance(config, self.config_type)
        ]
        if problems:
            raise GameDefinitionError(self.name, problems)

    def _config_problems(self) -> Iterable[str]:
        for field_name, field in self.config_type.model_fields.items():
            if field.is_required():
                yield f"config option {field_name!r} has no default"

    def _version_problems(self) -> list[str]:
        if not self.migrations and not self.frozen_versions:
            return []  # the version's form is the schema export's concern (`tabletop schemas`)
        problems: list[str] = []
        try:
            installed = parse_version(self.logic_version)
        except ValueError as error:
            return [str(error)]
        starts: set[str] = set()
        for step in self.migrations:
            label = f"migration {step.from_version} -> {step.to_version}"
            try:
                before, after = parse_version(step.from_version), parse_version(step.to_version)
            except ValueError as error:
                problems.append(f"{label}: {error}")
                continue
            if after <= before:
                problems.append(f"{label} does not lead to a later version")
            if after > installed:
                problems.append(f"{label} leads past the installed logic version {self.logic_version}")
            if step.from_version in starts:
                problems.append(f"two migrations start from {step.from_version}")
            starts.add(step.from_version)
        for version, frozen in self.frozen_versions.items():
            if frozen.name != self.name:
                problems.append(f"frozen copy {version} is of another game, {frozen.name!r}")
            if version == self.logic_version:
                problems.append(f"frozen copy {version} has the installed logic version")
        return problems

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

    def _edge_label(self, source: StrEnum, target: StrEnum) -> str:
        """The action types that can take the edge (per ``action_targets``), or ``next``."""
        handler = self.handlers[source]
        per_action = handler.action_targets
        takers = [t for t in handler.accepts if target in per_action.get(t, handler.transitions_to)]
        return "/".join(sorted(str(t) for t in takers)) or "next"

    def diagram(self) -> str:
        """Return the declared state graph as a mermaid ``stateDiagram-v2``."""
        from transitions.extensions import GraphMachine

        transitions = [
            {"trigger": self._edge_label(s, target), "source": s.value, "dest": target.value}
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
