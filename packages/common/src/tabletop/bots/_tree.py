"""The search tree of :class:`~tabletop.bots.MctsBot`: nodes, UCB1 selection, back-up, stopping."""

from __future__ import annotations

import gc
import math
import random
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager

from tabletop._machine import AnyState
from tabletop._state import GameResult

__all__ = ["Node", "back_up", "decided", "gc_paused", "rewards", "select"]


class Node:
    """One tree node: the statistics of the action that leads to it, and its children by action key."""

    __slots__ = ("available", "children", "rewards", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 1  # how often the parent could choose this node's action
        self.rewards: dict[str, float] = {}
        self.children: dict[bytes, Node] = {}


def select(children: dict[bytes, Node], keys: dict[bytes, int], acting: str, c: float) -> bytes:
    """The key of the child with the best UCB1 score for ``acting`` (every child tried; first best wins)."""
    best_key, best_score = b"", -math.inf
    log, sqrt = math.log, math.sqrt
    for key in keys:
        child = children[key]
        available = child.available = child.available + 1
        visits = child.visits
        score = child.rewards.get(acting, 0.0) / visits + c * sqrt(log(available) / visits)
        if score > best_score:
            best_key, best_score = key, score
    return best_key


def expand(node: Node, keys: dict[bytes, int], rng: random.Random) -> bytes | None:
    """Open one untried action of ``node``, chosen with ``rng``; None when every one was tried.

    The tried children count one more time they were available (for the selection rule).
    """
    children = node.children
    untried = [key for key in keys if key not in children]
    if not untried:
        return None
    for key in keys:
        if key in children:
            children[key].available += 1
    key = rng.choice(untried)
    children[key] = Node()
    return key


def back_up(path: list[Node], earned: Mapping[str, float]) -> None:
    """Add one visit and every player's reward to each node on ``path``."""
    for visited in path:
        visited.visits += 1
        totals = visited.rewards
        for player_id, reward in earned.items():
            totals[player_id] = totals.get(player_id, 0.0) + reward


def decided(root: Node, keys: Collection[bytes], remaining: int) -> bool:
    """True if no other root action can catch up with the most visited one in ``remaining`` iterations."""
    first = second = 0
    for key in keys:
        child = root.children.get(key)
        if child is None:
            return False  # an untried action is still to be visited
        visits = child.visits
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > remaining


@contextmanager
def gc_paused(pause: bool) -> Iterator[None]:
    """Pause Python's cyclic garbage collector inside the block, if asked and it is running."""
    if not pause or not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def rewards(state: AnyState) -> dict[str, float]:
    """1 for each winner and 0 for the others after a win; 0.5 each otherwise."""
    if state.result is GameResult.WIN:
        winners = set(state.winning_player_ids)
        return {player.player_id: 1.0 if player.player_id in winners else 0.0 for player in state.players}
    return {player.player_id: 0.5 for player in state.players}
