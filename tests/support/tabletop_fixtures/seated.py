"""An installed game's engine and a seeded game of it, for tests that play every game."""

from __future__ import annotations

from tabletop import AnyState, Game, GameConfig, GameEngine
from tabletop.games import load
from tabletop.testing import make_game

from tabletop_fixtures.short_games import SHORT_PARAMS

__all__ = ["seated"]


def seated(
    name: str, seed: int, players: int = 2, *, short: bool = False
) -> tuple[GameEngine[AnyState, GameConfig], Game[GameConfig]]:
    """The engine of the installed game ``name`` and a game of it seeded with ``seed``.

    ``players`` seats, raised to as many as the game needs at least and cut to as many as it
    allows at most. ``short``: the game's :data:`SHORT_PARAMS` config (Hearts to 1 point: one deal).
    """
    definition = load(name)
    players = min(max(players, definition.min_players), definition.max_players)
    config = definition.config_type.model_validate(SHORT_PARAMS.get(name, {})) if short else None
    return GameEngine(definition), make_game(definition, players=players, seed=seed, config=config)
