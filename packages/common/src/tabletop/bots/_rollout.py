"""Rollouts: uniformly random legal actions played in place, each checked only when it is drawn."""

from __future__ import annotations

import random
from typing import Generic, NamedTuple, TypeVar

from tabletop._action import GameAction
from tabletop._engine import GameEngine, run_owned
from tabletop._errors import IllegalActionError
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction, MachineContext, StateHandler
from tabletop.bots._bot import give_id
from tabletop.bots._positions import SIMULATED_ID

__all__ = ["RandomRollout"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)

_NO_CHECK = HydratedAction.check
"""The default ``check``, which accepts everything: an action class that keeps it is not called."""


class _Plan(NamedTuple, Generic[StateT, ConfigT]):
    """What one machine state's handler offers a rollout, worked out once per engine."""

    handler: StateHandler[StateT, ConfigT]
    types: list[str] | None
    """The action types every player may play (the default ``valid_actions_for_player``), or
    None if the handler decides per player and state."""
    classes: dict[str, type[HydratedAction[GameAction, StateT, ConfigT]]]
    """The enumerable action classes by type; with ``by_type``, only those the handler accepts."""
    by_type: bool
    """The handler keeps the default ``is_valid_action``: it accepts a candidate by its type."""
    fixed: tuple[type[HydratedAction[GameAction, StateT, ConfigT]], ...] | None
    """With fixed ``types`` and ``by_type``: the enumerable classes of ``types``, in their order
    (every candidate they enumerate is accepted by type); None otherwise."""


class RandomRollout(Generic[StateT, ConfigT]):
    """Plays a game on from a state with uniformly random legal actions, in place.

    A move is drawn uniformly among the acting player's legal actions, as from
    :meth:`GameEngine.legal_actions`, but without checking every candidate: the candidates are
    enumerated as the engine does (the handler's action types for the player, each type's
    ``enumerate``, the handler's ``is_valid_action``), then drawn at random and ``check``-ed one
    at a time; a candidate that fails is set aside and the draw is repeated among the rest.
    That is a uniform draw among the legal ones, for the price of one check when most pass.
    The drawn action, a fresh candidate the rollout owns, then runs in place through the
    engine with every rule of a submission (``run_owned``: :meth:`GameEngine.run` with
    ``in_place=True``, without re-validating a copy of the candidate, and without running its
    ``check`` a second time on the state the draw checked it on).

    Every draw comes from the ``rng`` passed in (a bot's generator, never the game's PRNG).

    Args:
        engine: The game's engine.
    """

    def __init__(self, engine: GameEngine[StateT, ConfigT]) -> None:
        self.engine = engine
        definition = engine.definition
        enumerable = {
            str(action_type): action_class
            for action_type, action_class in definition.action_by_type.items()
            if action_class.is_enumerable()
        }
        # Per machine state, what does not depend on the state: the handler's action types
        # (unless it chooses them per player), and which enumerable classes it may accept.
        self._plans: dict[object, _Plan[StateT, ConfigT]] = {}
        for machine_state, handler in definition.handlers.items():
            by_type = type(handler).is_valid_action is StateHandler.is_valid_action
            fixed = type(handler).valid_actions_for_player is StateHandler.valid_actions_for_player
            classes = {
                action_type: action_class
                for action_type, action_class in enumerable.items()
                if not by_type or action_type in handler.accepts
            }
            types = [str(action_type) for action_type in handler.accepts] if fixed else None
            ordered = None
            if types is not None and by_type:
                ordered = tuple(classes[action_type] for action_type in types if action_type in classes)
            self._plans[machine_state] = _Plan(handler, types, classes, by_type, ordered)

    def choose(
        self, state: StateT, player_id: str, game: Game[ConfigT], rng: random.Random
    ) -> HydratedAction[GameAction, StateT, ConfigT] | None:
        """A uniformly random legal action of ``player_id`` (empty id), or None if they have none.

        ``state`` must be hydrated (a state of the engine's state type).
        """
        if state.result is not None or not state.is_active(player_id):
            return None
        return self._draw(state, player_id, MachineContext(state, game), rng)

    def _draw(
        self,
        state: StateT,
        player_id: str,
        ctx: MachineContext[StateT, ConfigT],
        rng: random.Random,
    ) -> HydratedAction[GameAction, StateT, ConfigT] | None:
        """:meth:`choose` for an active player of a game that is not over, with ``ctx`` on ``state``."""
        handler, types, classes, by_type, fixed = self._plans[state.machine_state]
        candidates: list[HydratedAction[GameAction, StateT, ConfigT]] = []
        if fixed is not None:  # the usual handler: the same classes every time, all accepted
            for accepted in fixed:
                candidates += accepted.enumerate(state, player_id)
        else:
            for action_type in handler.valid_actions_for_player(player_id, ctx) if types is None else types:
                action_class = classes.get(action_type)
                if action_class is None:
                    continue
                if by_type:
                    candidates += action_class.enumerate(state, player_id)
                else:
                    candidates += [
                        candidate
                        for candidate in action_class.enumerate(state, player_id)
                        if handler.is_valid_action(candidate, ctx)
                    ]
        while candidates:
            index = rng.randrange(len(candidates))
            candidate = candidates[index]
            if type(candidate).check is not _NO_CHECK:
                try:
                    candidate.check(ctx)
                except IllegalActionError:
                    candidates[index] = candidates[-1]  # set aside: the rest stay equally likely
                    candidates.pop()
                    continue
            return candidate
        return None

    def play(self, state: StateT, game: Game[ConfigT], rng: random.Random, max_actions: int) -> None:
        """Play on ``state`` in place to the end, until nobody can act, or for ``max_actions``.

        The acting player is the first active player with a legal action.
        """
        engine, draw = self.engine, self._draw
        # One context for the whole rollout: the state is played on in place, so it stays the
        # context's state; drawing only reads it (valid_actions_for_player, check).
        ctx: MachineContext[StateT, ConfigT] = MachineContext(state, game)
        for _ in range(max_actions):
            if state.result is not None:
                return
            for player_id in state.active_player_ids:
                action = draw(state, player_id, ctx, rng)
                if action is not None:
                    break
            else:
                return
            give_id(action, SIMULATED_ID)  # a fresh candidate: owned here, handed over to the run
            run_owned(engine, action, state, game, checked=True)  # the draw checked it on this state
