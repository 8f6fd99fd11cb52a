"""Rollouts: uniformly random legal actions played in place, each checked only when it is drawn."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Generic, TypeVar, overload

from tabletop._action import GameAction
from tabletop._engine import GameEngine, run_owned
from tabletop._errors import IllegalActionError
from tabletop._game import Game, GameConfig
from tabletop._lazy import built
from tabletop._legal import LegalActions
from tabletop._machine import AnyState, HydratedAction, MachineContext
from tabletop.bots._bot import give_id
from tabletop.bots._positions import SIMULATED_ID

__all__ = ["RandomRollout"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)
CandidateT = TypeVar("CandidateT")

_NO_CHECK = HydratedAction.check
"""The default ``check``, which accepts everything: an action class that keeps it is not called."""


class RandomRollout(Generic[StateT, ConfigT]):
    """Plays a game on from a state with uniformly random legal actions, in place.

    A move is drawn uniformly among the acting player's legal actions, as from
    :meth:`GameEngine.legal_actions`, but without building and checking every candidate: the
    candidates are enumerated as the engine does (the handler's action types for the player,
    each type's ``enumerate``, the handler's ``is_valid_action``), left unbuilt where the
    handler keeps the default tests (``tabletop._lazy``: only the drawn one is validated into
    a model, from the same values), then drawn at random and ``check``-ed one at a time; a
    candidate that fails is set aside and the draw is repeated among the rest.
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
        self._offered = LegalActions(engine.definition).offered
        """Per type, the candidates the handler accepts, unchecked: what the engine's legal actions check."""

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
        pools = [offered for offered, _ in self._offered(state, player_id, ctx, lazy=True)]
        candidates = pools[0] if len(pools) == 1 and isinstance(pools[0], Sequence) else _Joined(pools)
        remaining = len(candidates)
        # Where a set-aside candidate's place now draws from: a sparse Fisher-Yates step, as
        # ``candidates[index] = candidates[-1]; candidates.pop()`` on a list of them would do.
        moved: dict[int, int] = {}
        while remaining:
            index = rng.randrange(remaining)
            candidate = built(candidates[moved.get(index, index)])  # only the drawn one becomes a model
            if type(candidate).check is not _NO_CHECK:
                try:
                    candidate.check(ctx)
                except IllegalActionError:
                    remaining -= 1  # set aside: the rest stay equally likely
                    moved[index] = moved.get(remaining, remaining)
                    continue
            return candidate
        return None

    def play(self, state: StateT, game: Game[ConfigT], rng: random.Random, max_actions: int) -> int:
        """Play on ``state`` in place to the end, until nobody can act, or for ``max_actions``.

        The acting player is the first active player with a legal action. Returns how many
        actions it played (players' actions: not the chance and system actions they caused).
        """
        engine, draw = self.engine, self._draw
        # One context for the whole rollout: the state is played on in place, so it stays the
        # context's state; drawing only reads it (valid_actions_for_player, check).
        ctx: MachineContext[StateT, ConfigT] = MachineContext(state, game)
        for played in range(max_actions):
            if state.result is not None:
                return played
            for player_id in state.active_player_ids:
                action = draw(state, player_id, ctx, rng)
                if action is not None:
                    break
            else:
                return played
            give_id(action, SIMULATED_ID)  # a fresh candidate: owned here, handed over to the run
            run_owned(engine, action, state, game, checked=True)  # the draw checked it on this state
        return max_actions


class _Joined(Sequence[CandidateT]):
    """Several types' candidates read as one sequence, without copying (or making) them."""

    __slots__ = ("_pools",)

    def __init__(self, pools: list[Iterable[CandidateT]]) -> None:
        self._pools = [pool if isinstance(pool, Sequence) else list(pool) for pool in pools]

    def __len__(self) -> int:
        return sum(len(pool) for pool in self._pools)

    @overload
    def __getitem__(self, index: int) -> CandidateT: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[CandidateT]: ...

    def __getitem__(self, index: int | slice) -> CandidateT | Sequence[CandidateT]:
        if isinstance(index, slice):
            return [candidate for pool in self._pools for candidate in pool][index]
        for pool in self._pools:
            if index < len(pool):
                return pool[index]
            index -= len(pool)
        raise IndexError(index)
