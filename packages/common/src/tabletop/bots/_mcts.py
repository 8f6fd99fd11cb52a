"""A seeded Monte Carlo tree search bot (UCT), with determinization for hidden information."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

from pydantic import BaseModel

from tabletop._action import GameAction
from tabletop._engine import GameEngine, run_owned
from tabletop._game import Game, GameConfig
from tabletop._machine import AnyState, HydratedAction
from tabletop._prng import PrngState
from tabletop.bots._bot import new_action_id
from tabletop.bots._determinizer import Determinizer, identity_determinizer
from tabletop.bots._positions import SIMULATED_ID, Position, PositionTable, action_key
from tabletop.bots._rollout import RandomRollout
from tabletop.bots._tree import Node, back_up, decided, expand, gc_paused, rewards, select
from tabletop.views import declares_visibility, project

__all__ = ["ActionStats", "MctsBot"]

StateT = TypeVar("StateT", bound=AnyState)
ConfigT = TypeVar("ConfigT", bound=GameConfig)


@dataclass(frozen=True, slots=True)
class ActionStats(Generic[StateT, ConfigT]):
    """What the search found out about one of the root's legal actions.

    Attributes:
        action: The candidate action (empty id).
        visits: How many iterations went through it.
        value: Its mean reward for the searching seat (1 win, 0.5 draw, 0 loss).
    """

    action: HydratedAction[GameAction, StateT, ConfigT]
    visits: int
    value: float


class MctsBot(Generic[StateT, ConfigT]):
    """Chooses actions by Monte Carlo tree search with the UCB1 rule (UCT).

    Each iteration samples a world (the state itself for a game without hidden information, or
    a ``determinizer``'s full state consistent with the bot's view), descends the tree by UCB1
    for the player acting at each node, expands one untried action, plays uniformly random
    legal actions to the end, and backs up every player's reward: 1 for a win, 0.5 for a draw
    (or an unfinished rollout), 0 for a loss. The action visited most at the root is played;
    :meth:`choose` stops searching as soon as no other action can overtake it.

    With several active players (simultaneous moves), the acting player is the first active
    player that has a legal action; at the root it is always the seat the bot plays. With a
    determinizer, children are matched across worlds by :func:`action_key` and selected by
    their availability counts (information-set MCTS from the bot's own view).

    Hidden information: for a game whose state type declares visibility
    (:func:`tabletop.views.declares_visibility`), the bot first projects the state it is given
    for its seat (:func:`tabletop.views.project`) and from then on reads only that view: the
    determinizer samples every world from it (the seat's legal actions are listed on the first
    sample), so two states that differ only in what the seat may not see get the same choices.

    Chance: the bot never foresees it. Every iteration's world gets a PRNG of its own (a fresh
    seed from the bot's generator), for every game, so what the game's PRNG would produce next
    (a rigged roll, the next card of the deck) cannot change the bot's choice; chance outcomes
    are sampled anew in each world.

    All randomness comes from the bot's own generator; the game's PRNG is never touched.
    Simulated actions go through the engine (``engine.run``'s rules; a candidate the engine
    enumerated and checked, or a copy of one the tree remembers, is handed over in place,
    without a re-validated copy). Each iteration copies its
    world once and plays the expanded action and the rollout on that copy in place
    (``in_place=True``); the tree walk above it runs on copies (remembered positions, without
    a determinizer) or in place on the iteration's sampled world (with one). The states passed
    in, and the states a determinizer returns, are never mutated.

    Args:
        engine: The game's engine.
        iterations: Iterations per decision.
        exploration: The UCB1 exploration constant ``c`` (default √2, for rewards in [0, 1]).
        seed: Seed of the bot's generator.
        determinizer: Samples full states from the bot's view. None: the game definition's
            (``GameDefinition(determinizer=...)``), if any. Without one (or with
            :func:`identity_determinizer`), the view is the state itself and the root's moves
            are computed once per decision; a game that hides information must have one.
        max_rollout_actions: A rollout stops after this many actions; the unfinished state is
            scored by ``evaluator``, or counts as a draw without one.
        evaluator: Each player's expected reward in an unfinished state (see
            ``GameDefinition(evaluator=...)``); None: the game definition's, if any.
        cache_size: The most distinct states one decision's transposition table indexes (states
            reached again by another path or iteration are not re-run); 0 turns it off. Only
            the tree walk of a search without a determinizer uses it: sampled worlds never repeat.
        pause_gc: Pause Python's cyclic garbage collector during a search (it is restored
            afterwards). A search allocates many short-lived states, and collections cost about
            a third of its time; turn this off in a multi-threaded host.
        time_limit: Seconds of wall-clock time one decision may search (None: no limit). The
            search stops at the first iteration boundary past it and plays the best action
            found so far (always after at least one iteration). A limit makes the choice depend
            on the machine's speed; without one, the same seed and state give the same choice.

    Raises:
        ValueError: ``iterations`` is below 1, ``exploration`` or ``time_limit`` is negative,
            or the game hides information and there is no determinizer.
    """

    def __init__(
        self,
        engine: GameEngine[StateT, ConfigT],
        *,
        iterations: int = 300,
        exploration: float = math.sqrt(2),
        seed: int = 0,
        determinizer: Determinizer[StateT] | None = None,
        max_rollout_actions: int = 1_000,
        evaluator: Callable[[StateT], Mapping[str, float]] | None = None,
        cache_size: int = 50_000,
        pause_gc: bool = True,
        time_limit: float | None = None,
    ) -> None:
        if time_limit is not None and not time_limit >= 0:
            msg = f"time_limit must not be negative, got {time_limit}"
            raise ValueError(msg)
        if iterations < 1:
            msg = f"iterations must be at least 1, got {iterations}"
            raise ValueError(msg)
        if exploration < 0:
            msg = f"exploration must not be negative, got {exploration}"
            raise ValueError(msg)
        self.engine = engine
        self.iterations = iterations
        self.exploration = exploration
        self.rng = random.Random(seed)
        definition = engine.definition
        chosen = definition.determinizer if determinizer is None else determinizer
        self.determinizer = None if chosen is identity_determinizer else chosen
        self.evaluator = definition.evaluator if evaluator is None else evaluator
        self.hidden_information = declares_visibility(definition.state_type)
        """True if the game's state declares visibility: the bot plays from its projected view."""
        if self.hidden_information and self.determinizer is None:
            msg = (
                f"{definition.name} hides information from its players, so MctsBot needs a determinizer "
                "to search from its own view: declare GameDefinition(determinizer=...) or pass "
                "MctsBot(determinizer=...)"
            )
            raise ValueError(msg)
        self.max_rollout_actions = max_rollout_actions
        self._rollout: RandomRollout[StateT, ConfigT] = RandomRollout(engine)
        self.cache_size = cache_size
        self.pause_gc = pause_gc
        self.time_limit = time_limit
        self.last_iterations = 0
        """How many iterations the last search ran (fewer than ``iterations`` when it stopped
        early or at its time limit; 0 when the choice needed no search)."""

    def new_id(self) -> str:
        """A fresh 21-character action id from the bot's generator."""
        return new_action_id(self.rng)

    def choose(
        self, state: StateT, player_id: str, game: Game[ConfigT]
    ) -> HydratedAction[GameAction, StateT, ConfigT] | None:
        """The most visited legal action for ``player_id`` with a fresh id, or None if they have none.

        ``state`` is the full state; with hidden information the bot reads only its projection
        for ``player_id`` (otherwise, with a determinizer, it may be what the seat sees). A
        player with a single legal action plays it without a search.
        """
        view, world = self._observe(state, player_id)
        legal = self.engine.legal_actions(world, player_id, game)
        self.last_iterations = 0
        if len(legal) > 1:
            ranked = self._search(view, world, player_id, game, legal, stop_early=True)
            legal = [stats.action for stats in ranked]
        if not legal:
            return None
        return legal[0].with_id(self.new_id())

    def evaluate(
        self, state: StateT, player_id: str, game: Game[ConfigT]
    ) -> list[ActionStats[StateT, ConfigT]]:
        """Search from ``state`` with every iteration and rank ``player_id``'s legal actions.

        Most visited first; ties are broken by value, then by the order of the legal actions.
        Empty if the player has no legal action. A ``time_limit`` still applies.
        """
        view, world = self._observe(state, player_id)
        legal = self.engine.legal_actions(world, player_id, game)
        return self._search(view, world, player_id, game, legal, stop_early=False) if legal else []

    def _observe(self, state: StateT, player_id: str) -> tuple[BaseModel, StateT]:
        """What the seat sees, and the state its legal actions are listed on.

        With hidden information: the seat's projected view and a first world sampled from it
        (nothing else of ``state`` is read). Otherwise the state itself, twice.
        """
        if not self.hidden_information:
            return state, state
        assert self.determinizer is not None
        view = project(state, player_id)
        return view, self.determinizer(view, player_id, self.rng)

    def _search(
        self,
        view: BaseModel,
        world: StateT,
        player_id: str,
        game: Game[ConfigT],
        legal: list[HydratedAction[GameAction, StateT, ConfigT]],
        *,
        stop_early: bool,
    ) -> list[ActionStats[StateT, ConfigT]]:
        """Rank ``legal`` by search; with ``stop_early``, stop once the most visited action is certain.

        Worlds are sampled from ``view``; ``world`` (where ``legal`` was listed) is the only one
        without a determinizer, and the first one with hidden information.
        """
        candidates = {action_key(action): action for action in legal}
        root = Node()
        limit = self.time_limit
        deadline = None if limit is None else time.monotonic() + limit
        done = 0
        sampled: StateT | None = world if self.hidden_information else None
        with gc_paused(self.pause_gc):
            # Sampled worlds are all different: a transposition table would only cost
            # serializations and memory. Without a determinizer, every iteration starts from
            # the same state, and positions met again are looked up instead of re-run.
            determinizer = self.determinizer
            capacity = self.cache_size if determinizer is None else 0
            table: PositionTable[StateT, ConfigT] = PositionTable(self.engine, game, capacity)
            start = table.moves(table.position(world), player_id) if determinizer is None else None
            for done in range(1, self.iterations + 1):
                if determinizer is None:
                    assert start is not None
                    self._iterate(root, start, table, self._own_future(world))
                else:
                    if sampled is None:
                        sampled = determinizer(view, player_id, self.rng)
                    base, sampled = sampled, None
                    self._iterate_owned(root, self._owned(base), player_id, table)
                if stop_early and decided(root, candidates.keys(), self.iterations - done):
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    break
            del table  # freed before the collector runs again, not traversed by it
        self.last_iterations = done
        ranked = [
            ActionStats(action, child.visits, child.rewards.get(player_id, 0.0) / child.visits)
            for key, action in candidates.items()
            if (child := root.children.get(key)) is not None and child.visits
        ]
        unvisited = [ActionStats(a, 0, 0.0) for key, a in candidates.items() if key not in root.children]
        ranked.sort(key=lambda stats: (-stats.visits, -stats.value))
        return ranked + unvisited

    def _rewards(self, state: StateT) -> Mapping[str, float]:
        """Every player's reward: the result of a finished game, else the evaluator's estimate (or a draw)."""
        if state.result is None and self.evaluator is not None:
            return self.evaluator(state)
        return rewards(state)

    def _own_future(self, state: StateT) -> PrngState:
        """A PRNG stream of the bot's own for one world: its future randomness.

        The bot never reads what the game's PRNG will produce next (the next roll, the next
        card off a deck nobody sees): every iteration's world draws from a fresh seed out of
        the bot's generator, at the state's draw count (an immutable value, shared freely).
        """
        return PrngState(seed=self.rng.getrandbits(32), invocations=state.prng.invocations)

    def _owned(self, state: StateT) -> StateT:
        """A copy of ``state`` that belongs to this iteration alone, playing with its own PRNG."""
        future = self._own_future(state)
        owned = self.engine.copy_state(state)
        owned.prng = future
        return owned

    def _iterate(
        self,
        root: Node,
        world: Position[StateT, ConfigT],
        table: PositionTable[StateT, ConfigT],
        future: PrngState,
    ) -> None:
        """One iteration from ``world`` (its moves filled in): select, expand, roll out, back up.

        The tree walk goes through ``table`` (positions met before are looked up, not re-run).
        ``future`` is this world's PRNG (immutable, so shared freely): every action is
        played with it (never with the PRNG of the state the position was first met in). The
        expanded action and the rollout run in place on one copy of the last position's state.
        """
        rng, c = self.rng, self.exploration
        node, position = root, world
        path = [root]
        expanded: HydratedAction[GameAction, StateT, ConfigT] | None = None
        while position.state.result is None:
            acting = table.moves(position).acting
            if not acting:
                break
            keys = table.keys(position)
            opened = expand(node, keys, rng)
            if opened is not None:
                node = node.children[opened]
                path.append(node)
                expanded = position.legal[keys[opened]]
                break
            key = select(node.children, keys, acting, c)
            node = node.children[key]
            path.append(node)
            position, future = table.successor(position, keys[key], future)
        state = position.state
        if expanded is not None or (state.result is None and self.max_rollout_actions > 0):
            state = self.engine.copy_state(state)
            state.prng = future  # immutable: the remembered state's PRNG state is shared, not changed
            if expanded is not None:  # the table's checked candidate: a copy of it is handed over
                run_owned(self.engine, expanded.with_id(SIMULATED_ID), state, table.game)
            self._rollout.play(state, table.game, self.rng, self.max_rollout_actions)
        back_up(path, self._rewards(state))

    def _iterate_owned(
        self, root: Node, state: StateT, player_id: str, table: PositionTable[StateT, ConfigT]
    ) -> None:
        """One iteration played in place on ``state``, a sampled world this iteration owns.

        Nothing is remembered between iterations but the tree's statistics: each step lists the
        acting player's legal actions on ``state`` and runs the chosen one in place.
        """
        rng, c = self.rng, self.exploration
        node = root
        path = [root]
        forced = player_id
        engine, game = self.engine, table.game
        while state.result is None:
            position = table.moves(Position(state), forced)
            forced = ""
            acting = position.acting
            if not acting:
                break
            keys = table.keys(position)
            opened = expand(node, keys, rng)
            if opened is not None:
                node = node.children[opened]
                path.append(node)
                run_owned(engine, position.legal[keys[opened]], state, game)
                self._rollout.play(state, game, self.rng, self.max_rollout_actions)
                break
            key = select(node.children, keys, acting, c)
            node = node.children[key]
            path.append(node)
            run_owned(engine, position.legal[keys[key]], state, game)
        back_up(path, self._rewards(state))
