"""The engine: starts games and applies actions, as a pure function of (action, state, game)."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar, cast

from pydantic import BaseModel, ValidationError

from tabletop._action import ActionSource, GameAction
from tabletop._checksum import next_checksum
from tabletop._definition import GameDefinition
from tabletop._errors import GameDefinitionError, IllegalActionError, InvalidStateError, PrngKeyError
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction, MachineContext
from tabletop._model import writes_directly
from tabletop._parser import RawAction
from tabletop._prng import PrngState, Unkeyed, check_prng_key

__all__ = ["GameEngine", "RunResult"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

Action = HydratedAction[GameAction, StateT, ConfigT]

_Targets = Mapping[str, Collection[StrEnum]]  # built once: subscripting a generic per action costs
_COUNTED = ("action_count", "action_checksum")
_MOVED = ("action_count", "action_checksum", "machine_state")


@dataclass(frozen=True, slots=True)
class RunResult(Generic[StateT, ConfigT]):
    """What one engine call produced.

    Attributes:
        state: The new state: a fresh object, the input state untouched (with ``in_place``, the
            input state itself, changed).
        actions: Every action recorded, in order: the submitted one, then the system actions
            it caused, each with its ``index`` set.
    """

    state: StateT
    actions: tuple[Action[StateT, ConfigT], ...]


class GameEngine(Generic[StateT, ConfigT]):
    """Applies actions to states for one game definition. Holds no game data between calls.

    Args:
        definition: The game to run.
        max_cascade: The most actions one call may record (the submitted action plus the
            system actions it queues); more is a definition error (a runaway cascade).
    """

    def __init__(self, definition: GameDefinition[StateT, ConfigT], *, max_cascade: int = 256) -> None:
        self.definition = definition
        self.max_cascade = max_cascade
        self._handlers = definition.handlers
        self._state_type = definition.state_type
        self._direct_writes = writes_directly(definition.state_type)

    def start(
        self, game: Game[ConfigT], *, prng_key: str | Unkeyed | None = None
    ) -> RunResult[StateT, ConfigT]:
        """Build the initial state of ``game``.

        Order: the fixed fields (players in seating order, turn order = seating order, PRNG at
        the game's seed and ``prng_key``, the initial machine state), then the state id (one
        ``rand_id()``), then the game's ``setup`` (which may draw more), then ``enter`` of the
        initial state, then any system actions it queued.

        Args:
            game: The game to start.
            prng_key: The game's secret PRNG key (``tabletop.new_prng_key()``): it lives on in
                the state's host-only ``prng`` only; keep it next to the match to replay it from
                the seed. :data:`tabletop.UNKEYED` starts from the seed alone, on purpose (for
                reproducible fixtures). None: unkeyed for a game that does not need a key;
                refused for one that does (:attr:`GameDefinition.requires_prng_key`).

        Raises:
            IllegalActionError: ``game`` does not fit the definition (code ``invalid-game``).
            PrngKeyError: The game needs a key and none was given (``prng-key-required``), or
                the key is not 32 to 128 hex digits (``invalid-prng-key``).
        """
        definition = self.definition
        problems = self._game_problems(game)
        if problems:
            raise IllegalActionError("invalid-game", "; ".join(problems))
        prng = PrngState(seed=game.seed, key=self._key(prng_key))
        player_type = definition.player_state_type
        state = self._state_type.model_validate(
            {
                "id": "",
                "game_id": game.id,
                "players": [player_type(player_id=seat.id) for seat in game.players],
                "prng": prng,
                "machine_state": definition.initial_state,
                "turn_manager": {"turn_order": [seat.id for seat in game.players]},
            }
        )
        ctx = MachineContext(state, game)
        state.id = ctx.prng.rand_id()
        if definition.setup is not None:
            definition.setup(ctx)
        self._handlers[state.machine_state].enter(ctx)
        return RunResult(state, self._drain(ctx, []))

    def _key(self, prng_key: str | Unkeyed | None) -> str | None:
        definition = self.definition
        if prng_key is None:
            if definition.requires_prng_key:
                why = "hidden information" if definition.hidden_information else "chance"
                raise PrngKeyError(
                    "prng-key-required",
                    f"{definition.name} has {why}: start it with prng_key=tabletop.new_prng_key() "
                    "(or prng_key=tabletop.UNKEYED for a reproducible fixture)",
                )
            return None
        if isinstance(prng_key, Unkeyed):
            return None
        try:
            return check_prng_key(prng_key)
        except ValueError as exc:
            raise PrngKeyError("invalid-prng-key", str(exc)) from None

    def load_state(self, data: bytes | str | Mapping[str, object] | BaseModel) -> StateT:
        """Read a state a host stored, checking its schema and the game's invariants.

        Args:
            data: The state as JSON bytes or text, a mapping, or a model (a state of this game).

        Returns:
            A fresh hydrated state (never aliasing ``data``).

        Raises:
            InvalidStateError: The state fails the game's state schema, the framework's own
                consistency checks (active players and turn order name seats that exist) or
                the definition's ``invariants``; ``problems`` names each failure (code
                ``invalid-state``).
        """
        state_type = self._state_type
        try:
            if isinstance(data, bytes | str):
                state = state_type.model_validate_json(data)
            elif isinstance(data, BaseModel):
                state = state_type.model_validate(data.model_dump())
            else:
                state = state_type.model_validate(data)
        except ValidationError as exc:
            problems = [
                f"{'.'.join(str(part) for part in error['loc']) or '(root)'}: {error['msg']}"
                for error in exc.errors(include_url=False, include_input=False)
            ]
            raise InvalidStateError(problems) from None
        self.check_state(state)
        return state

    def check_state(self, state: StateT) -> None:
        """Check a (schema-valid) state against the framework's and the game's invariants.

        Raises:
            InvalidStateError: One or more invariants fail (code ``invalid-state``).
        """
        seats = [player.player_id for player in state.players]
        problems = [f"player ids are not unique: {seats}"] if len(set(seats)) != len(seats) else []
        problems += [
            f"active player {player_id!r} has no seat"
            for player_id in state.active_player_ids
            if player_id not in seats
        ]
        problems += [
            f"turn order names {player_id!r}, who has no seat"
            for player_id in state.turn_manager.turn_order
            if player_id not in seats
        ]
        check = self.definition.invariants
        if check is not None and not problems:
            try:
                problems += check(state)
            except Exception as exc:  # a state the game's own checks cannot even read is invalid
                problems.append(f"the game's invariants failed on it: {type(exc).__name__}: {exc}")
        if problems:
            raise InvalidStateError(problems)

    def run(
        self, action: RawAction, state: StateT, game: Game[ConfigT], *, in_place: bool = False
    ) -> RunResult[StateT, ConfigT]:
        """Apply ``action`` and every system action it causes to a copy of ``state``.

        ``action`` may be JSON bytes or text, a mapping, or an action model; it is parsed at the
        boundary (an instance of one of the game's own action classes is re-validated by its
        class, a copy). The submitted object itself is never changed. If anything raises,
        nothing changed: the input state is never mutated.
        While a simultaneous group is open, a user action is recorded with the group's id; one
        naming another group fails with ``wrong-simultaneous-group``, and an ``index`` behind the
        action count is accepted only for an action naming the open group, at or after its
        ``start_index`` (otherwise, and for any index ahead, ``stale-index``).

        A submitted action may not claim to be the game's own (``source`` ``"system"``:
        ``system-action``) nor be of a system-only type (``system-only``, path ``type``); system
        actions enter only through ``ctx.add_system_action``. JSON and mappings are held to the
        game's request schema (see :class:`~tabletop.ActionParser`).

        Args:
            action: The submitted action.
            state: The state to apply it to.
            game: The game being played.
            in_place: Apply to ``state`` itself instead of a copy, for a caller that owns it
                (a search rollout, a simulation, a replay): the same checks and records, without
                the copy. The result's ``state`` is ``state``. If this raises, ``state`` is left
                undefined (possibly half-changed) and must be discarded. ``state`` must be an
                instance of the definition's hydrated state type.

        Raises:
            IllegalActionError: The action cannot be read or may not be played now.
            InvalidStateError: ``game`` is not the state's game: another id, or other seats
                (code ``game-mismatch``); nothing is changed.
            GameDefinitionError: A handler broke its declaration (undeclared next state, runaway
                cascade).
            TypeError: ``in_place`` with a state that is not of the hydrated state type.
        """
        mismatch = self._mismatch(state, game)
        if mismatch:
            raise InvalidStateError(mismatch, code="game-mismatch")
        parsed = self.definition.parser.parse(action)
        if parsed.source is not ActionSource.USER:
            raise IllegalActionError(
                "system-action", "only the game itself issues system actions", path="source"
            )
        if parsed.system_only:
            raise IllegalActionError(
                "system-only", f"only the game issues {parsed.type} actions", path="type"
            )
        if in_place:
            if type(state) is not self._state_type:
                msg = f"in_place needs a {self._state_type.__name__}, not a {type(state).__name__}"
                raise TypeError(msg)
            working = state
        else:
            working = self.copy_state(state)
        ctx = MachineContext(working, game)
        return RunResult(working, self._drain(ctx, [parsed]))

    def copy_state(self, state: StateT) -> StateT:
        """Return a hydrated, independent copy of ``state`` (re-validated, never deep-copied)."""
        return self._state_type.__pydantic_validator__.validate_python(state)  # type: ignore[no-any-return]

    def valid_action_types(self, state: StateT, player_id: str, game: Game[ConfigT]) -> list[str]:
        """The action types ``player_id`` may play now; empty for inactive players."""
        if state.result is not None or not state.is_active(player_id):
            return []
        ctx = MachineContext(state, game)
        return self._handlers[state.machine_state].valid_actions_for_player(player_id, ctx)

    def legal_actions(
        self, state: StateT, player_id: str, game: Game[ConfigT]
    ) -> list[Action[StateT, ConfigT]]:
        """Every concrete action ``player_id`` may play now, from each type's ``enumerate``.

        Candidates carry an empty id; give one a fresh id before submitting it.
        """
        hydrated = state if isinstance(state, self._state_type) else self.copy_state(state)
        legal: list[Action[StateT, ConfigT]] = []
        if hydrated.result is not None or not hydrated.is_active(player_id):
            return legal
        ctx = MachineContext(hydrated, game)
        handler = self._handlers[hydrated.machine_state]
        action_by_type = self.definition.action_by_type
        for action_type in handler.valid_actions_for_player(player_id, ctx):
            action_class = action_by_type[action_type]
            if not action_class.is_enumerable():
                continue
            for candidate in action_class.enumerate(hydrated, player_id):
                if not handler.is_valid_action(candidate, ctx):
                    continue
                try:
                    candidate.check(ctx)
                except IllegalActionError:
                    continue
                legal.append(candidate)
        return legal

    @staticmethod
    def _mismatch(state: StateT, game: Game[ConfigT]) -> list[str]:
        seats = [seat.id for seat in game.players]
        players = [player.player_id for player in state.players]
        if game.id == state.game_id and seats == players:
            return []
        problems = []
        if game.id != state.game_id:
            problems.append(f"the game is {game.id!r}, the state belongs to {state.game_id!r}")
        if seats != players:
            problems.append(f"the game seats {seats}, the state has players {players}")
        return problems

    def _game_problems(self, game: Game[ConfigT]) -> list[str]:
        definition = self.definition
        problems: list[str] = []
        if game.type_id != definition.name:
            problems.append(f"game type {game.type_id!r} is not {definition.name!r}")
        if not isinstance(game.config, definition.config_type):
            problems.append(
                f"config is a {type(game.config).__name__}, not a {definition.config_type.__name__}"
            )
        count = len(game.players)
        if not definition.min_players <= count <= definition.max_players:
            problems.append(
                f"{count} players; {definition.name} takes {definition.min_players}..{definition.max_players}"
            )
        ids = [seat.id for seat in game.players]
        if len(set(ids)) != len(ids):
            problems.append(f"player ids are not unique: {ids}")
        return problems

    def _drain(
        self, ctx: MachineContext[StateT, ConfigT], first: list[Action[StateT, ConfigT]]
    ) -> tuple[Action[StateT, ConfigT], ...]:
        ctx.queue.extend(first)
        recorded: list[Action[StateT, ConfigT]] = []
        while ctx.queue:
            if len(recorded) >= self.max_cascade:
                raise GameDefinitionError(
                    self.definition.name,
                    [f"one run recorded {len(recorded)} actions without settling (max_cascade)"],
                )
            action = ctx.queue.popleft()
            self._process(action, ctx)
            recorded.append(action)
        return tuple(recorded)

    def _process(self, action: Action[StateT, ConfigT], ctx: MachineContext[StateT, ConfigT]) -> None:
        state = ctx.state
        self._admit(action, state)
        current = state.machine_state
        handler = self._handlers[current]
        if not handler.is_valid_action(action, ctx):
            raise IllegalActionError(
                "action-not-allowed",
                f"{action.type} is not allowed in state {current.value}",
                path="type",
            )
        action.check(ctx)
        action.apply(ctx)
        following = handler.on_action(action, ctx)
        targets = cast(_Targets, handler.action_targets).get(action.type)
        if following is not None and (
            following not in handler.transitions_to or (targets is not None and following not in targets)
        ):
            where = f"state {current.value!r} moved to {str(following)!r} after {action.type}"
            raise GameDefinitionError(self.definition.name, [f"{where}, which it does not declare"])
        index = state.action_count
        if self._direct_writes and writes_directly(type(action)):
            # What pydantic's __setattr__ does for these models, without its per-write dispatch.
            action.__dict__["index"] = index
            action.__pydantic_fields_set__.add("index")
            values = state.__dict__
            values["action_count"] = index + 1
            values["action_checksum"] = next_checksum(values["action_checksum"], action.id, index)
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

    @staticmethod
    def _admit(action: Action[StateT, ConfigT], state: StateT) -> None:
        if state.result is not None:
            raise IllegalActionError("game-over", "the game is over")
        if not action.id:
            raise IllegalActionError("missing-id", "the action has no id", path="id")
        if action.game_id != state.game_id:
            raise IllegalActionError(
                "wrong-game",
                f"action is for game {action.game_id!r}, not {state.game_id!r}",
                path="game_id",
            )
        group = state.simultaneous_group
        in_group = False
        if action.source == ActionSource.USER:
            named = action.simultaneous_group_id
            if named is not None and (group is None or named != group.id):
                open_now = "no group is open" if group is None else f"the open group is {group.id!r}"
                raise IllegalActionError(
                    "wrong-simultaneous-group",
                    f"action names simultaneous group {named!r}, but {open_now}",
                    path="simultaneous_group_id",
                )
            in_group = named is not None
        if action.index is not None and action.index != state.action_count:
            lagging_in_group = (
                in_group and group is not None and group.start_index <= action.index < state.action_count
            )
            if not lagging_in_group:
                raise IllegalActionError(
                    "stale-index",
                    f"action expects index {action.index}, but {state.action_count} actions are recorded",
                    path="index",
                )
        player_id = action.player_id
        if player_id is not None and not state.is_active(player_id):
            code = (
                "player-not-active"
                if any(p.player_id == player_id for p in state.players)
                else "unknown-player"
            )
            raise IllegalActionError(code, f"player {player_id!r} may not act now", path="player_id")
        if group is not None and action.source == ActionSource.USER:
            action.simultaneous_group_id = group.id
