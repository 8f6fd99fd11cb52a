"""An installed game's engine and a seeded game of it, for tests that play every game."""

from __future__ import annotations

from tabletop import AnyState, Game, GameConfig, GameEngine
from tabletop.games import load
from tabletop.testing import make_game

__all__ = ["seated"]


def seated(
    name: str, seed: int, players: int = 2
) -> tuple[GameEngine[AnyState, GameConfig], Game[GameConfig]]:
    """The engine of the installed game ``name`` and a game of it seeded with ``seed``.

    ``players`` seats, raised to as many as the game needs at least and cut to as many as it
    allows at most.
    """
    definition = load(name)
    players = min(max(players, definition.min_players), definition.max_players)
    return GameEngine(definition), make_game(definition, players=players, seed=seed)
