"""The pieces a game's state machine is made of: context, hydrated actions, state handlers."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from enum import StrEnum
from typing import ClassVar, Generic, Self, TypeVar

from pydantic import JsonValue

from tabletop._action import ActionSource, GameAction, payload_fields
from tabletop._copier import fields_set
from tabletop._game import Game, GameConfig
from tabletop._hydration import Hydrated
from tabletop._lazy import UnbuiltCandidates, lazy_candidates, unbuilt
from tabletop._model import writes_directly
from tabletop._prng import Prng
from tabletop._state import GameResult, GameState, PlayerState, SimultaneousGroup
from tabletop.components._turn_manager import TurnManager

__all__ = [
    "AnyState",
    "ChanceOutcomes",
    "ChanceResolver",
    "HydratedAction",
    "MachineContext",
    "StateHandler",
    "TerminalHandler",
]

AnyState = GameState[PlayerState, StrEnum]
"""The erased type of any game's state."""

StateT = TypeVar("StateT", bound=AnyState)

_new = object.__new__
_set = object.__setattr__
_ID = frozenset({"id"})
_TURN_STARTED = ("turn_manager", "active_player_ids")
ConfigT = TypeVar("ConfigT", bound=GameConfig)
ActionT = TypeVar("ActionT", bound=GameAction, covariant=True)
SystemActionT = TypeVar("SystemActionT", bound=GameAction)

ChanceOutcomes = Sequence[tuple[object, int]]
"""A chance point's outcomes now: each possible outcome with its positive integer weight.

An outcome's probability is its weight over the sum of the weights (``[(face, 1) for face in
range(1, 7)]`` is a fair die; a card that a bag holds twice weighs 2)."""

ChanceResolver = Callable[["HydratedAction[GameAction, AnyState, GameConfig]", ChanceOutcomes], object]
"""Chooses a chance point's outcome instead of the state's PRNG: given the pending chance action
and its outcomes now (:meth:`tabletop.HydratedChanceAction.chances`), returns one of those
outcomes (matched by equality)."""


class MachineContext(Generic[StateT, ConfigT]):
    """What handlers and actions see while the engine processes actions.

    Attributes:
        state: The working (hydrated) state; mutate it freely, the caller's state is a copy.
        game: The game being played (seats, config, seed).
        prng: The PRNG over ``state.prng``; the only source of randomness game code may use.
        turns: The state's turn manager (an immutable value; assign a changed one back).
    """

    __slots__ = ("_prng", "chance", "game", "queue", "state")

    def __init__(self, state: StateT, game: Game[ConfigT], chance: ChanceResolver | None = None) -> None:
        self.state = state
        self.game = game
        self.chance = chance
        """Who decides chance points' outcomes: None for the state's PRNG (see ChanceResolver)."""
        self._prng: Prng | None = None
        self.queue: list[HydratedAction[GameAction, StateT, ConfigT]] = []
        """System actions queued and not processed yet, first to be processed first."""

    @property
    def prng(self) -> Prng:
        """The PRNG over ``state.prng`` (built on first use: most actions draw nothing).

        Every draw stores the advanced :class:`~tabletop.PrngState` on ``state.prng``.
        """
        prng = self._prng
        if prng is None:
            prng = self._prng = Prng.over(self.state)
        return prng

    @property
    def config(self) -> ConfigT:
        """The game's typed configuration."""
        return self.game.config

    @property
    def turns(self) -> TurnManager:
        """The state's turn manager, ``state.turn_manager``.

        It is immutable: a change is a new manager, kept by assigning it back, e.g.
        ``ctx.turns = ctx.turns.reversed()``. :meth:`start_next_turn`, :meth:`start_turn_of`
        and :meth:`end_turn` do that themselves.
        """
        return self.state.turn_manager

    @turns.setter
    def turns(self, manager: TurnManager) -> None:
        state = self.state
        if writes_directly(type(state)):  # what pydantic's __setattr__ does, without its dispatch
            state.__dict__["turn_manager"] = manager
            state.__pydantic_fields_set__.add("turn_manager")
        else:
            state.turn_manager = manager

    def start_next_turn(self, *, skip: Callable[[str], bool] | None = None) -> str:
        """Start the next player's turn and make them the only active player.

        The next player is the turn manager's (see :meth:`TurnManager.next_player`,
        which ``skip`` is passed to); the current turn, if any, ends at the current action count.
        To give the turn to a particular player instead, use :meth:`start_turn_of`.

        Returns:
            The id of the player whose turn it now is.
        """
        return self._start_turn(None, skip)

    def start_turn_of(self, player_id: str) -> str:
        """Give the turn to ``player_id``: start their turn and make them the only active player.

        For a rule that picks who plays next (the loser of a challenge starts the next round).
        The current turn, if any, ends at the current action count; the turn order is unchanged,
        so a later :meth:`start_next_turn` goes on from ``player_id`` in that order.

        Returns:
            ``player_id``.

        Raises:
            ValueError: ``player_id`` is not in the turn order.
        """
        return self._start_turn(player_id, None)

    def end_turn(self) -> None:
        """End the current turn, if any, at the current action count (nobody's turn runs then)."""
        self.turns = self.state.turn_manager.ended(self.state.action_count)

    def _start_turn(self, player_id: str | None, skip: Callable[[str], bool] | None) -> str:
        state = self.state
        values = state.__dict__  # field reads without the model's __getattr__ hook (a hot path)
        turns: TurnManager = values["turn_manager"]
        if player_id is None:
            player_id = turns.next_player(skip=skip)
        started = turns.started(player_id, values["action_count"])
        if writes_directly(type(state)):  # what pydantic's __setattr__ does, without its dispatch
            values["turn_manager"] = started
            values["active_player_ids"] = [player_id]
            state.__pydantic_fields_set__.update(_TURN_STARTED)
        else:
            state.turn_manager = started
            state.active_player_ids = [player_id]
        return player_id

    def end_game(self, winners: Sequence[str] = ()) -> None:
        """Settle the game: a win for ``winners``, or a draw if there are none.

        Nobody is active afterwards, and the current turn, if any, ends.

        Raises:
            KeyError: A winner is not a player of this game.
        """
        for player_id in winners:
            self.state.player(player_id)
        self.state.result = GameResult.WIN if winners else GameResult.DRAW
        self.state.winning_player_ids = list(winners)
        self.state.active_player_ids = []
        self.end_turn()

    def open_simultaneous_group(self) -> SimultaneousGroup:
        """Open a group of simultaneous actions and record it on ``state.simultaneous_group``.

        The id is drawn from the PRNG (one ``rand_id()``); ``start_index`` is the current action
        count. Until :meth:`close_simultaneous_group`, user actions are recorded with the group's
        id, and an action whose ``index`` lags behind is accepted if it names the group (see
        :class:`~tabletop.SimultaneousGroup`). Who may act is still ``state.active_player_ids``.

        Raises:
            ValueError: A group is already open.
        """
        if self.state.simultaneous_group is not None:
            msg = f"simultaneous group {self.state.simultaneous_group.id!r} is already open"
            raise ValueError(msg)
        group = SimultaneousGroup(id=self.prng.rand_id(), start_index=self.state.action_count)
        self.state.simultaneous_group = group
        return group

    def close_simultaneous_group(self) -> SimultaneousGroup:
        """Close the open group of simultaneous actions and return it.

        Raises:
            ValueError: No group is open.
        """
        group = self.state.simultaneous_group
        if group is None:
            msg = "no simultaneous group is open"
            raise ValueError(msg)
        self.state.simultaneous_group = None
        return group

    def add_system_action(self, action_type: type[SystemActionT], /, **fields: object) -> SystemActionT:
        """Queue a follow-up action, processed after the current one in the same run.

        The id is drawn from the PRNG; ``game_id`` and ``source`` are filled in.

        Raises:
            pydantic.ValidationError: ``fields`` do not fit the action model.
        """
        action: SystemActionT = action_type.__pydantic_validator__.validate_python(  # model_validate's core
            {
                "id": self.prng.rand_id(),
                "game_id": self.state.game_id,
                "source": ActionSource.SYSTEM,
                **fields,
            }
        )
        if not isinstance(action, HydratedAction):
            msg = f"{action_type.__name__} is not a HydratedAction; the engine cannot apply it"
            raise TypeError(msg)
        self.queue.append(action)
        return action


class HydratedAction(GameAction, Hydrated[ActionT], Generic[ActionT, StateT, ConfigT]):
    """Behaviour of one action type. Subclass it together with the action's plain model.

    Example:
        ``class HydratedPass(Pass, HydratedAction[Pass, SampleState, SampleConfig])``
    """

    def check(self, ctx: MachineContext[StateT, ConfigT]) -> None:
        """Raise :class:`IllegalActionError` if the action may not be applied now.

        Called after the handler accepted the action type and before :meth:`apply`. Must not
        change anything. The default accepts everything.
        """

    def apply(self, ctx: MachineContext[StateT, ConfigT]) -> None:
        """Change ``ctx.state`` and record what happened in the action's metadata, if any."""

    def with_id(self, action_id: str) -> Self:
        """A copy of this action with ``id`` set: a candidate, ready to submit.

        Equal to ``model_copy(update={"id": action_id})`` (a shallow copy: nothing is validated
        here, the engine validates what it is given), without pydantic's copy machinery.

        Raises:
            TypeError: ``action_id`` is not a string.
        """
        if type(action_id) is not str:
            msg = f"an action id is a string, not {type(action_id).__name__}"
            raise TypeError(msg)
        copied = _new(type(self))
        values = self.__dict__.copy()
        values["id"] = action_id
        _set(copied, "__dict__", values)
        fields_set(copied, self.__pydantic_fields_set__ | _ID)
        _set(copied, "__pydantic_extra__", self.__pydantic_extra__)
        private = self.__pydantic_private__
        _set(copied, "__pydantic_private__", None if private is None else private.copy())
        return copied

    @classmethod
    def enumerate(cls, state: StateT, player_id: str) -> Sequence[Self]:
        """Return the concrete actions of this type ``player_id`` may play in ``state``.

        Candidates carry an empty ``id``; whoever submits one gives it a fresh id. The engine
        (:meth:`GameEngine.legal_actions`) asks only while the game is not over, only for an
        active player, only for types the current state accepts, and keeps only candidates
        that pass :meth:`check`: ``enumerate`` need not repeat those tests.
        """
        msg = f"{cls.__name__} does not enumerate its legal actions"
        raise NotImplementedError(msg)

    @classmethod
    def is_enumerable(cls) -> bool:
        """True if the class overrides :meth:`enumerate` (system-only actions need not)."""
        return _overrides(cls, "enumerate")

    @classmethod
    def action_space(cls, game: Game[ConfigT]) -> list[dict[str, JsonValue]]:
        """Return every payload this action type can ever carry in ``game``, in a stable order.

        A payload is the action's own fields as JSON (everything beyond the ``GameAction``
        envelope and ``metadata``), e.g. ``[{"amount": 1}, ..., {"amount": 5}]``. It depends only
        on the game (seats and config), never on a state, so an integer codec built from it is
        fixed for a whole game (OpenSpiel's and PettingZoo's discrete action spaces). Everything
        :meth:`enumerate` returns must be in it. Only actions players take need one; an
        enumerable action without payload fields has one by default: ``[{}]``.
        """
        if cls.is_enumerable() and not payload_fields(cls):
            return [{}]
        msg = f"{cls.__name__} does not declare its action space"
        raise NotImplementedError(msg)

    @classmethod
    def has_action_space(cls) -> bool:
        """True if the class overrides :meth:`action_space` or is enumerable without a payload."""
        return _overrides(cls, "action_space") or (cls.is_enumerable() and not payload_fields(cls))

    @classmethod
    def candidate(cls, state: StateT, player_id: str | None, /, **fields: object) -> Self:
        """Build a candidate action (empty id) for ``enumerate``.

        Inside a search's draw (``tabletop._lazy.lazy_candidates``) the candidate is left
        unbuilt: the search validates only the one it draws, from the same values.
        """
        values = {"id": "", "game_id": state.game_id, "player_id": player_id, **fields}
        if lazy_candidates.get():
            return unbuilt(cls, values)
        return cls.__pydantic_validator__.validate_python(values)  # type: ignore[no-any-return]

    @classmethod
    def candidates(
        cls, state: StateT, player_id: str | None, field: str, values: Iterable[object], /, **fields: object
    ) -> Sequence[Self]:
        """Build one candidate per value of ``field``, in order, the other ``fields`` shared.

        The same candidates as ``[cls.candidate(state, player_id, **fields, **{field: value})
        for value in values]``, for an ``enumerate`` whose candidates differ in one field (a
        cell, a card). Inside a search's draw the sequence makes a candidate only when it is read
        (``tabletop._lazy.UnbuiltCandidates``), so drawing one of a hundred cells makes one.
        """
        common: dict[str, object] = {"id": "", "game_id": state.game_id, "player_id": player_id, **fields}
        if lazy_candidates.get():
            return UnbuiltCandidates(cls, common, field, list(values))
        validate = cls.__pydantic_validator__.validate_python
        made: list[Self] = []
        for value in values:
            one = common.copy()
            one[field] = value
            made.append(validate(one))
        return made


def _overrides(cls: type, name: str) -> bool:
    """True if a class between ``cls`` and :class:`HydratedAction` defines ``name``."""
    for klass in cls.__mro__:
        if klass is HydratedAction:
            return False
        if name in vars(klass):
            return True
    return False


class StateHandler(Generic[StateT, ConfigT]):
    """The behaviour of one machine state. Stateless: one instance serves every game.

    Class attributes:
        accepts: The action types this state accepts.
        transitions_to: Every state ``on_action`` may move to. Moving to the state itself
            re-runs ``enter`` (a new turn, say); to stay without re-entering, ``on_action``
            returns None, which needs no declaration.
        action_targets: Optionally, per accepted action type, the states ``on_action`` may move
            to after it (each among ``transitions_to``). The engine holds handlers to it, and the
            diagram labels an edge only with the actions that can take it; action types not
            listed may take every edge of ``transitions_to``.
    """

    accepts: ClassVar[Collection[StrEnum]] = ()
    transitions_to: ClassVar[Collection[StrEnum]] = ()
    action_targets: ClassVar[Mapping[StrEnum, Collection[StrEnum]]] = {}

    def is_valid_action(
        self,
        action: HydratedAction[GameAction, StateT, ConfigT],
        ctx: MachineContext[StateT, ConfigT],
    ) -> bool:
        """True if this state accepts the action (by default: its type is in ``accepts``)."""
        return action.type in self.accepts

    def valid_actions_for_player(self, player_id: str, ctx: MachineContext[StateT, ConfigT]) -> list[str]:
        """The action types ``player_id`` may play now (by default: all of ``accepts``)."""
        return [str(action_type) for action_type in self.accepts]

    def enter(self, ctx: MachineContext[StateT, ConfigT]) -> None:
        """Called every time the machine enters this state, even from itself (not on a stay)."""

    def on_action(
        self,
        action: HydratedAction[GameAction, StateT, ConfigT],
        ctx: MachineContext[StateT, ConfigT],
    ) -> StrEnum | None:
        """Return the next machine state after ``action`` was applied, or None to stay.

        Staying keeps the machine where it is without running ``enter`` again: the same player
        keeps acting (several actions in one turn). Returning this state itself re-enters it.
        """
        msg = f"{type(self).__name__} accepts actions but does not implement on_action"
        raise NotImplementedError(msg)


class TerminalHandler(StateHandler[StateT, ConfigT]):
    """A state that ends the game: accepts nothing and goes nowhere."""

    accepts: ClassVar[Collection[StrEnum]] = ()
    transitions_to: ClassVar[Collection[StrEnum]] = ()

    def valid_actions_for_player(self, player_id: str, ctx: MachineContext[StateT, ConfigT]) -> list[str]:
        """Nothing is valid in a terminal state."""
        return []
