"""The framework's own random playout (``RandomRollout``, what MCTS and simulation play), timed.

The OpenSpiel rows of issue 24 compare a random playout per move; beside the loop a user writes
(legal actions, a random choice, ``engine.run``), this is the playout the framework's searches
run: candidates built only when drawn, the drawn one run in place through ``run_owned``. The
game's start is timed with it, as OpenSpiel's loops time ``new_initial_state``.
"""

from __future__ import annotations

import random
import time

from tabletop import UNKEYED, AnyState, Game, GameConfig, GameEngine
from tabletop.bots._rollout import RandomRollout

__all__ = ["rollout_game"]

AnyEngine = GameEngine[AnyState, GameConfig]


def rollout_game(engine: AnyEngine, game: Game[GameConfig], seed: int) -> tuple[float, int]:
    """One game from its start to its end: seconds (the start included), players' actions played."""
    rollout: RandomRollout[AnyState, GameConfig] = RandomRollout(engine)
    rng = random.Random(seed)
    started = time.perf_counter()
    state = engine.start(game, prng_key=UNKEYED).state
    played = rollout.play(state, game, rng, 100_000)
    seconds = time.perf_counter() - started
    if state.result is None:
        msg = f"a random {engine.definition.name} game did not end in {played} actions"
        raise RuntimeError(msg)
    return seconds, played
