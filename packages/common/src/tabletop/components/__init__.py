"""Reusable, schema-backed building blocks for game states."""

from tabletop.components._turn_manager import HydratedTurnManager, Turn, TurnManager

__all__ = ["HydratedTurnManager", "Turn", "TurnManager"]
