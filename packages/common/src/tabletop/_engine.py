"""The engine: starts games and applies actions, as a pure function of (action, state, game)."""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel, ValidationError

from tabletop._action import ActionSource, GameAction
from tabletop._admission import mismatch
from tabletop._bookkeeping import bookkeeping_problems
from tabletop._copier import copier
from tabletop._definition import GameDefinition
from tabletop._errors import IllegalActionError, InvalidStateError, PrngKeyError
from tabletop._game import Game, GameConfig
from tabletop._lazy import built, is_unbuilt
from tabletop._legal import LegalActions
from tabletop._machine import AnyState, ChanceResolver, HydratedAction, MachineContext
from tabletop._parser import RawAction
from tabletop._prng import PrngState, Unkeyed, check_prng_key
from tabletop._processor import ActionProcessor
from tabletop._state import GameState

__all__ = [
    "GameEngine",
    "Paused",
    "RunResult",
    "not_a_state",
    "resume_paused",
    "run_owned",
    "run_paused",
    "start_paused",
]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

Action = HydratedAction[GameAction, StateT, ConfigT]


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
        self._handlers = definition.handlers
        self._state_type = definition.state_type
        self._copy = copier(definition.state_type)
        self._legal = LegalActions(definition)
        self._actions = frozenset(definition.actions)
        """The game's own action classes."""
        self._parse = definition.parser.parse
        self._parse_recorded = definition.parser.parse_recorded
        self._name = definition.name
        self._config_type = definition.config_type
        self._fits = definition.config_invariants
        processor = self._processor = ActionProcessor(definition, max_cascade)
        self._process = processor.process
        self._drain = processor.drain

    @property
    def max_cascade(self) -> int:
        """The most actions one call may record (see the class)."""
        return self._processor.max_cascade

    @max_cascade.setter
    def max_cascade(self, value: int) -> None:
        self._processor.max_cascade = value

    def start(
        self,
        game: Game[ConfigT],
        *,
        prng_key: str | Unkeyed | None = None,
        chance: ChanceResolver | None = None,
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
            chance: Chooses the outcomes of the chance points met (a deal at setup) instead of
                the state's PRNG (:data:`tabletop.ChanceResolver`; tests force outcomes with
                :func:`tabletop.testing.forced_chance`). None: the PRNG draws them.

        Raises:
            IllegalActionError: ``game`` does not fit the definition (code ``invalid-game``),
                or ``chance`` chose an outcome not possible (``impossible-chance-outcome``).
            PrngKeyError: The game needs a key and none was given (``prng-key-required``), or
                the key is not 32 to 128 hex digits (``invalid-prng-key``).
        """
        ctx = self._begin(game, prng_key, chance)
        return RunResult(ctx.state, self._drain(ctx, None))

    def _begin(
        self, game: Game[ConfigT], prng_key: str | Unkeyed | None, chance: ChanceResolver | None
    ) -> MachineContext[StateT, ConfigT]:
        """The initial state up to its initial ``enter``, in a context whose queue is not drained."""
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
        ctx = MachineContext(state, game, chance)
        state.id = ctx.prng.rand_id()
        if definition.setup is not None:
            definition.setup(ctx)
        self._handlers[state.machine_state].enter(ctx)
        return ctx

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

    def load_state(
        self, data: bytes | str | Mapping[str, object] | BaseModel, game: Game[ConfigT] | None = None
    ) -> StateT:
        """Read a state a host stored, checking its schema and the game's invariants.

        A state this accepts can be run: :meth:`run`, :meth:`valid_action_types` and
        :meth:`legal_actions` raise nothing on it but the typed errors
        (:class:`~tabletop.IllegalActionError`, and :class:`~tabletop.InvalidStateError` for a
        ``game`` that is not the state's).

        Args:
            data: The state as JSON bytes or text, a mapping, or a model (a state of this game).
            game: The state's game, to check that too (as :meth:`run` does on every call): its
                id, seats, type and config, and the definition's ``config_invariants``.

        Returns:
            A fresh hydrated state (never aliasing ``data``).

        Raises:
            InvalidStateError: The state fails the game's state schema, the framework's own
                consistency checks (seats, turn order and turns, the open simultaneous group,
                the result) or the definition's ``invariants``; ``problems`` names each
                failure (code ``invalid-state``). With ``game``: code ``game-mismatch`` when
                the game is not the state's.
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
        if game is not None:
            self._check_game(state, game)
        return state

    def check_state(self, state: StateT) -> None:
        """Check a (schema-valid) state against the framework's and the game's invariants.

        The framework checks its own bookkeeping (seats; active players, turn counts, turns and
        winners name seats; turns and the open simultaneous group lie within the recorded
        actions; a game in play has a turn order holding the player on turn, and no winners),
        then the definition's ``invariants`` (on a state whose bookkeeping holds).

        Raises:
            InvalidStateError: One or more invariants fail (code ``invalid-state``).
        """
        problems = bookkeeping_problems(state, self.definition.machine_states)
        check = self.definition.invariants
        if check is not None and not problems:
            try:
                problems += check(state)
            except Exception as exc:  # a state the game's own checks cannot even read is invalid
                problems.append(f"the game's invariants failed on it: {type(exc).__name__}: {exc}")
        if problems:
            raise InvalidStateError(problems)

    def run(
        self,
        action: RawAction,
        state: StateT,
        game: Game[ConfigT],
        *,
        in_place: bool = False,
        chance: ChanceResolver | None = None,
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
            chance: Chooses the outcomes of the chance points the action leads to instead of
                the state's PRNG (see :meth:`start`). None: the PRNG draws them.

        Raises:
            IllegalActionError: The action cannot be read or may not be played now.
            InvalidStateError: ``game`` is not the state's game: another id, other seats, another
                game type, a config of another class, or a config the state does not fit (the
                definition's ``config_invariants``) (code ``game-mismatch``); or ``state`` is not
                a game state at all, e.g. a mapping (code ``invalid-state``: read stored states
                with :meth:`load_state`). Nothing is changed.
            GameDefinitionError: A handler broke its declaration (undeclared next state, runaway
                cascade).
            TypeError: ``in_place`` with a state that is not of the hydrated state type.
        """
        if not isinstance(state, GameState) or not isinstance(game, Game):
            raise not_a_state(state, game)
        players, seats = state.players, game.players
        if (
            game.id != state.game_id
            or len(players) != len(seats)
            or game.type_id != self._name
            or not isinstance(game.config, self._config_type)
        ):
            self._check_game(state, game)
        for player, seat in zip(players, seats, strict=False):  # the lengths are equal (above)
            if player.player_id != seat.id:
                self._check_game(state, game)
        if self._fits is not None:
            self._check_fit(state, game)
        parsed = self._parse(action)
        if parsed.system_only:
            raise IllegalActionError(
                "system-only", f"only the game issues {parsed.type} actions", path="type"
            )
        if parsed.source is not ActionSource.USER:
            raise IllegalActionError(
                "system-action", "only the game itself issues system actions", path="source"
            )
        if in_place:
            if type(state) is not self._state_type:
                msg = f"in_place needs a {self._state_type.__name__}, not a {type(state).__name__}"
                raise TypeError(msg)
            working = state
        else:
            working = self._copy(state)
        ctx = MachineContext(working, game, chance)
        self._process(parsed, ctx)
        if not ctx.queue:  # the usual case: one action, no system actions queued
            return RunResult(working, (parsed,))
        return RunResult(working, self._drain(ctx, parsed, processed=True))

    def record(
        self, action: RawAction, state: StateT, game: Game[ConfigT], *, in_place: bool = False
    ) -> RunResult[StateT, ConfigT]:
        """Apply a host action to a copy of ``state``: one the host records itself, which no
        player submits and no rule queues.

        Today that is the framework's :class:`tabletop.clocks.TimeExpired`: a seat lost on time,
        and the game ends by its forfeit rule. A replay submits a recorded host action again
        with this method, as it submits a player's action with :meth:`run`.

        Args:
            action: The host action, as recorded (JSON, a mapping, or the model).
            state: The state to apply it to.
            game: The game being played.
            in_place: Apply to ``state`` itself (see :meth:`run`).

        Raises:
            IllegalActionError: The action cannot be read, is not a host action
                (``not-a-host-action``, path ``type``), or may not be recorded now
                (``game-over``, ``stale-index``, ``player-not-active``, ``unknown-player``).
            InvalidStateError: As for :meth:`run`.
            GameDefinitionError: The game's forfeit rule named a winner without a seat.
        """
        if not isinstance(state, GameState) or not isinstance(game, Game):
            raise not_a_state(state, game)
        self._check_game(state, game)
        parsed = self._parse_recorded(action)
        if in_place:
            if type(state) is not self._state_type:
                msg = f"in_place needs a {self._state_type.__name__}, not a {type(state).__name__}"
                raise TypeError(msg)
            working = state
        else:
            working = self._copy(state)
        self._processor.record_host(parsed, MachineContext(working, game))
        return RunResult(working, (parsed,))

    def copy_state(self, state: StateT) -> StateT:
        """Return a hydrated, independent copy of ``state`` (never deep-copied).

        A hydrated state of this game is copied structurally, from its declared field types:
        immutable values shared, containers and nested models rebuilt (what re-validating it
        gives, without validating again what was validated when the state was built or loaded).
        Anything else (a plain state, a mapping) is validated into the hydrated state type.
        """
        return self._copy(state)

    def valid_action_types(self, state: StateT, player_id: str, game: Game[ConfigT]) -> list[str]:
        """The action types ``player_id`` may play now; empty for inactive players.

        Raises:
            InvalidStateError: ``state`` is not a game state (a mapping: read it with
                :meth:`load_state`), or ``game`` is not a game.
        """
        if not isinstance(state, GameState) or not isinstance(game, Game):
            raise not_a_state(state, game)
        if state.result is not None or not state.is_active(player_id):
            return []
        ctx = MachineContext(state, game)
        return self._handlers[state.machine_state].valid_actions_for_player(player_id, ctx)

    def legal_actions(
        self, state: StateT, player_id: str, game: Game[ConfigT]
    ) -> list[Action[StateT, ConfigT]]:
        """Every concrete action ``player_id`` may play now, from each type's ``enumerate``.

        Candidates carry an empty id; give one a fresh id before submitting it.

        Raises:
            InvalidStateError: ``state`` is not a game state (a mapping: read it with
                :meth:`load_state`), or ``game`` is not a game.
        """
        if not isinstance(state, GameState) or not isinstance(game, Game):
            raise not_a_state(state, game)
        hydrated = state if isinstance(state, self._state_type) else self.copy_state(state)
        return self._legal(hydrated, player_id, game)

    def _check_game(self, state: StateT, game: Game[ConfigT]) -> None:
        """Raise ``game-mismatch`` unless ``game`` is ``state``'s: id, seats, type, config."""
        problems = mismatch(state, game)
        if game.type_id != self._name:
            problems.append(f"the game is a {game.type_id!r} game, the state is {self._name!r}'s")
        if not isinstance(game.config, self._config_type):
            problems.append(
                f"the config is a {type(game.config).__name__}, not a {self._config_type.__name__}"
            )
        if problems:
            raise InvalidStateError(problems, code="game-mismatch")
        if self._fits is not None:
            self._check_fit(state, game)

    def _check_fit(self, state: StateT, game: Game[ConfigT]) -> None:
        """Raise ``game-mismatch`` if the definition's ``config_invariants`` fail."""
        assert self._fits is not None
        try:
            problems = list(self._fits(state, game.config))
        except Exception as exc:  # a state the game's checks cannot even read does not fit
            problems = [f"the game's config invariants failed on it: {type(exc).__name__}: {exc}"]
        if problems:
            raise InvalidStateError(problems, code="game-mismatch")

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


def not_a_state(state: object, game: object) -> InvalidStateError:
    if not isinstance(state, GameState):
        what = f"the state is a {type(state).__name__}, not a game state (read stored states with load_state)"
    else:
        what = f"the game is a {type(game).__name__}, not a Game"
    return InvalidStateError([what])


def run_owned(
    engine: GameEngine[StateT, ConfigT],
    action: Action[StateT, ConfigT],
    state: StateT,
    game: Game[ConfigT],
    *,
    checked: bool = False,
    chance: ChanceResolver | None = None,
) -> None:
    """``engine.run(action, state, game, in_place=True)`` for the framework's own searches.

    ``action`` is a fresh candidate from one of the game's ``enumerate`` methods that the caller
    owns and hands over: it is processed and recorded as it is (the engine sets its ``index``),
    not re-validated into a copy. ``state`` is the caller's own, of the hydrated state type,
    and ``game`` is its game (:meth:`GameEngine.run` checks both on every call; a search checks
    them once). Every rule still applies: the handler's acceptance, ``check``, the declared
    transitions, the checksum and the records. Anything else goes through :meth:`GameEngine.run`.
    ``checked``: the caller ran ``action.check`` on ``state`` as it is now (a search that checks
    only the candidate it drew); the engine does not run it again. ``chance`` decides chance
    points as in :meth:`GameEngine.run`.

    Raises:
        IllegalActionError: The action may not be played now.
        GameDefinitionError: A handler broke its declaration.
    """
    if is_unbuilt(action):  # a lazy candidate nobody built: validated in full
        with suppress(ValidationError):  # else run refuses it with the parser's error (invalid-value)
            action = built(action)
        engine.run(action, state, game, in_place=True, chance=chance)
        return
    if (
        type(action) not in engine._actions
        or action.source is not ActionSource.USER
        or action.system_only
        or type(state) is not engine._state_type
    ):
        engine.run(action, state, game, in_place=True, chance=chance)
        return
    ctx = MachineContext(state, game, chance)
    processor = engine._processor
    processor.process(action, ctx, checked)
    if ctx.queue:
        processor.drain(ctx, action, processed=True)


@dataclass(frozen=True, slots=True)
class Paused(Generic[StateT, ConfigT]):
    """Where a paused run stopped.

    Attributes:
        state: The state (changed in place, when the run was given one).
        actions: The actions recorded by this run, in order.
        pending: What is left to process: empty when the state waits on players (or is over),
            else a chance point whose outcome is undecided first, then the rest of the queue.
    """

    state: StateT
    actions: tuple[Action[StateT, ConfigT], ...]
    pending: list[Action[StateT, ConfigT]]


def start_paused(
    engine: GameEngine[StateT, ConfigT], game: Game[ConfigT], prng_key: str | Unkeyed | None
) -> Paused[StateT, ConfigT]:
    """Start ``game``, stopping at the first chance point (an adapter's chance node)."""
    ctx = engine._begin(game, prng_key, None)
    recorded = engine._processor.drain(ctx, None, pause=True)
    return Paused(ctx.state, recorded, ctx.queue)


def run_paused(
    engine: GameEngine[StateT, ConfigT],
    action: Action[StateT, ConfigT],
    state: StateT,
    game: Game[ConfigT],
) -> Paused[StateT, ConfigT]:
    """:func:`run_owned` (``state`` changes in place) that stops at the first chance point met.

    ``action`` is a user action the caller owns (a codec's or ``enumerate``'s candidate with
    an id); ``state`` is of the hydrated state type and ``game`` is its game.

    Raises:
        IllegalActionError: The action may not be played now.
    """
    if (
        type(action) not in engine._actions
        or action.source is not ActionSource.USER
        or action.system_only
        or type(state) is not engine._state_type
    ):
        msg = f"run_paused takes a user action of {engine.definition.name} and its hydrated state"
        raise TypeError(msg)
    ctx = MachineContext(state, game)
    engine._processor.process(action, ctx)
    recorded = engine._processor.drain(ctx, action, processed=True, pause=True)
    return Paused(state, recorded, ctx.queue)


def resume_paused(
    engine: GameEngine[StateT, ConfigT],
    pending: list[Action[StateT, ConfigT]],
    outcome: object,
    state: StateT,
    game: Game[ConfigT],
) -> Paused[StateT, ConfigT]:
    """Decide the pending chance point as ``outcome`` (``state`` changes in place), and go on
    to the next chance point.

    ``pending`` is the ``pending`` of the :class:`Paused` that left ``state``; it is consumed.

    Raises:
        IllegalActionError: Nothing is pending (``not-a-chance-node``), or ``outcome`` is not
            possible now (``impossible-chance-outcome``; ``state`` is then unchanged).
    """
    if not pending:
        raise IllegalActionError("not-a-chance-node", "no chance point is pending")
    ctx = MachineContext(state, game, lambda _action, _outcomes: outcome)
    ctx.queue = pending
    first = pending.pop(0)
    engine._processor.process(first, ctx)
    ctx.chance = None
    recorded = engine._processor.drain(ctx, first, processed=True, pause=True)
    return Paused(state, recorded, ctx.queue)
