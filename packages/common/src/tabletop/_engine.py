"""The engine: starts games and applies actions, as a pure function of (action, state, game)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from tabletop._action import ActionSource, GameAction
from tabletop._checksum import next_checksum
from tabletop._definition import GameDefinition
from tabletop._errors import GameDefinitionError, IllegalActionError
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction, MachineContext
from tabletop._parser import RawAction
from tabletop._prng import PrngState

__all__ = ["GameEngine", "RunResult"]

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
        self.max_cascade = max_cascade
        self._handlers = definition.handlers
        self._state_type = definition.state_type

    def start(self, game: Game[ConfigT]) -> RunResult[StateT, ConfigT]:
        """Build the initial state of ``game``.

        Order: the fixed fields (players in seating order, turn order = seating order, PRNG at
        the game's seed and key, the initial machine state), then the state id (one ``rand_id()``), then
        the game's ``setup`` (which may draw more), then ``enter`` of the initial state, then any
        system actions it queued.

        Raises:
            IllegalActionError: ``game`` does not fit the definition (code ``invalid-game``).
        """
        definition = self.definition
        problems = self._game_problems(game)
        if problems:
            raise IllegalActionError("invalid-game", "; ".join(problems))
        prng = PrngState(seed=game.seed, key=game.prng_key)
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
        ``system-action``); system actions enter only through ``ctx.add_system_action``.

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
            GameDefinitionError: A handler broke its declaration (undeclared next state, runaway
                cascade).
            TypeError: ``in_place`` with a state that is not of the hydrated state type.
        """
        parsed = self.definition.parser.parse(action)
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
            working = self.copy_state(state)
        ctx = MachineContext(working, game)
        return RunResult(working, self._drain(ctx, [parsed]))

    def copy_state(self, state: StateT) -> StateT:
        """Return a hydrated, independent copy of ``state`` (re-validated, never deep-copied)."""
        return self._state_type.model_validate(state)

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
        if following not in handler.transitions_to:
            raise GameDefinitionError(
                self.definition.name,
                [f"state {current.value!r} moved to {following!r}, which it does not declare"],
            )
        action.index = state.action_count
        state.action_count += 1
        state.action_checksum = next_checksum(state.action_checksum, action.id, action.index)
        state.machine_state = following
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
