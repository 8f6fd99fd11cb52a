"""One bot decision, as a pure function of a match's stored state, for a host's bot process pool.

A host (the server) sends a :class:`DecisionRequest` (plain JSON text and numbers, so it pickles cheaply
and the worker process rebuilds everything from installed games) and gets the chosen action's
JSON back. The search never runs in the process that serves requests when the pool is on
(``bot_processes`` ≥ 1): request latency does not depend on bot load, and the worker processes
run at a lower scheduling priority. Private to the hosts of this repository; it imports no
web framework, so a bot process starts in a fraction of a second.
"""

from __future__ import annotations

import contextlib
import os
import random
from dataclasses import dataclass

import orjson

from tabletop._action import GameAction
from tabletop._definition import GameDefinition
from tabletop._engine import GameEngine
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction
from tabletop.bots._mcts import MctsBot
from tabletop.games import available, load
from tabletop.views import project

__all__ = ["BOT_NICENESS", "DecisionRequest", "decide", "decide_json", "init_bot_process", "pool_can_rebuild"]

BOT_NICENESS = 10
"""How much lower than the server's a bot process's scheduling priority is (``os.nice``)."""

Definition = GameDefinition[AnyState, GameConfig]
Engine = GameEngine[AnyState, GameConfig]
Action = HydratedAction[GameAction, AnyState, GameConfig]

_ENGINES: dict[str, Engine] = {}
"""The engines a bot process built, by game name."""


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """What a bot process needs to choose one action.

    Attributes:
        game: The installed game's registry name.
        state_json: The full stored state.
        game_json: The match's ``Game`` (players, config, seed) as JSON.
        player_id: The bot's seat.
        kind: ``random`` or ``mcts``.
        iterations: The MCTS iteration budget (already capped by the server's setting).
        time_limit: Seconds the decision may search (MCTS).
        seed: Seed of the bot's generator for this decision.
    """

    game: str
    state_json: str
    game_json: str
    player_id: str
    kind: str
    iterations: int
    time_limit: float
    seed: int


def decide(
    engine: Engine, state: AnyState, game: Game[GameConfig], request: DecisionRequest
) -> Action | None:
    """The bot's move for ``request.player_id``, or None if it has none.

    A bot reads only its seat's view: an MCTS bot projects the state for its seat and samples
    worlds from that view; a random bot picks among the legal actions of a world sampled from its
    view when the game hides information.
    """
    rng = random.Random(request.seed)
    definition = engine.definition
    if request.kind == "mcts":
        bot: MctsBot[AnyState, GameConfig] = MctsBot(
            engine,
            iterations=request.iterations,
            seed=rng.getrandbits(32),
            pause_gc=False,
            time_limit=request.time_limit,
        )
        return bot.choose(state, request.player_id, game)
    world = state
    determinizer = definition.determinizer
    if definition.hidden_information and determinizer is not None:  # pick from what the seat may see
        world = definition.state_type.model_validate(
            determinizer(project(state, request.player_id), request.player_id, rng)
        )
    legal = engine.legal_actions(world, request.player_id, game)
    return rng.choice(legal) if legal else None


def decide_json(request: DecisionRequest) -> str | None:
    """:func:`decide` from JSON to JSON, in a bot process: the chosen action's JSON, or None."""
    engine = _ENGINES.get(request.game)
    if engine is None:
        engine = _ENGINES[request.game] = GameEngine(load(request.game))
    definition = engine.definition
    state = engine.load_state(request.state_json)
    game = definition.game_type.model_validate_json(request.game_json)
    action = decide(engine, state, game, request)
    return None if action is None else orjson.dumps(action.model_dump(mode="json")).decode()


def init_bot_process() -> None:
    """Start a bot process: lower its scheduling priority (games are loaded on first use)."""
    with contextlib.suppress(OSError):  # not allowed here: it still works, at the same priority
        os.nice(BOT_NICENESS)


def pool_can_rebuild(name: str, definition: Definition) -> bool:
    """True if a bot process rebuilds ``definition`` from the installed game ``name`` (a game
    given to the server any other way is searched in a thread of the server's process)."""
    if name not in available():
        return False
    try:
        return load(name) is definition
    except (LookupError, TypeError, ImportError):
        return False
