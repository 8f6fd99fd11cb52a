"""A seeded bot that plays uniformly among the legal actions, and a playout loop."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

from tabletop._action import GameAction
from tabletop._engine import GameEngine, RunResult, not_a_state
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction
from tabletop._prng import Unkeyed, new_prng_key
from tabletop._state import GameState
from tabletop.bots._bot import Bot, give_id, new_action_id
from tabletop.bots._rollout import RandomRollout

__all__ = ["RandomBot", "playout"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)


class RandomBot(Generic[StateT, ConfigT]):
    """Chooses uniformly among a player's legal actions, from its own seeded generator.

    The bot's randomness is the player's, not the game's: it never touches the state's PRNG.
    """

    def __init__(self, engine: GameEngine[StateT, ConfigT], seed: int = 0) -> None:
        self.engine = engine
        self.rng = random.Random(seed)
        self._rollout: RandomRollout[StateT, ConfigT] = RandomRollout(engine)

    def new_id(self) -> str:
        """A fresh 21-character action id from the bot's generator."""
        return new_action_id(self.rng)

    def choose(
        self, state: StateT, player_id: str, game: Game[ConfigT]
    ) -> HydratedAction[GameAction, StateT, ConfigT] | None:
        """A legal action for ``player_id`` with a fresh id, or None if they have none.

        The draw is the searches' rollout draw: uniform among the legal actions,
        building and checking only the candidates it draws.

        Raises:
            InvalidStateError: ``state`` is not a game state, or ``game`` is not a game (as
                :meth:`GameEngine.legal_actions` raises).
        """
        engine = self.engine
        if not isinstance(state, GameState) or not isinstance(game, Game):
            raise not_a_state(state, game)
        hydrated = state if isinstance(state, engine.definition.state_type) else engine.copy_state(state)
        chosen = self._rollout.choose(hydrated, player_id, game, self.rng)
        if chosen is None:
            return None
        give_id(chosen, self.new_id())  # a fresh candidate: owned here, so the id is set in place
        return chosen


def playout(
    engine: GameEngine[StateT, ConfigT],
    game: Game[ConfigT],
    bot: Bot[StateT, ConfigT] | Mapping[str, Bot[StateT, ConfigT]],
    *,
    max_actions: int = 10_000,
    prng_key: str | Unkeyed | None = None,
) -> Iterator[RunResult[StateT, ConfigT]]:
    """Start ``game`` and let bots play until the game ends.

    ``bot`` plays every seat, or is a mapping from player id to the bot of that seat. When
    several players are active, the first (in ``active_player_ids`` order) that has a legal
    action acts next.

    ``prng_key`` is passed to :meth:`GameEngine.start`; None gives a game that needs a key
    (:attr:`GameDefinition.requires_prng_key`) a fresh one (``tabletop.new_prng_key()``, kept
    in the first result's ``state.prng.key``). Pass a key, or :data:`tabletop.UNKEYED`, to
    replay a playout.

    Yields the start result, then one result per submitted action.

    Raises:
        RuntimeError: Nobody can act although the game is not over, or ``max_actions`` passed.
        KeyError: ``bot`` is a mapping without a bot for an active player.
    """
    if prng_key is None and engine.definition.requires_prng_key:
        prng_key = new_prng_key()
    result = engine.start(game, prng_key=prng_key)
    yield result
    state = result.state
    for _ in range(max_actions):
        if state.result is not None:
            return
        for player_id in state.active_player_ids:
            seat_bot = bot[player_id] if isinstance(bot, Mapping) else bot
            action = seat_bot.choose(state, player_id, game)
            if action is not None:
                break
        else:
            msg = f"no active player can act in {state.machine_state} (active: {state.active_player_ids})"
            raise RuntimeError(msg)
        result = engine.run(action, state, game)
        yield result
        state = result.state
    msg = f"the game did not end within {max_actions} actions"
    raise RuntimeError(msg)
