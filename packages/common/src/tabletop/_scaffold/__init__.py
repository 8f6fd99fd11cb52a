"""Generators for game packages and their parts: the machinery of ``tabletop new``."""

from tabletop._scaffold._generators import Changes, format_with_ruff, new_action, new_game, new_state
from tabletop._scaffold._names import GameNames, PartNames, ScaffoldError

__all__ = [
    "Changes",
    "GameNames",
    "PartNames",
    "ScaffoldError",
    "format_with_ruff",
    "new_action",
    "new_game",
    "new_state",
]
