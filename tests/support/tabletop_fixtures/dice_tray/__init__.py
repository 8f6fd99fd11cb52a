"""Dice tray: a fixture game in the workspace layout whose actions are deliberately not listed
alphabetically (``ActionType``: Roll, Hold, Bank; modules: bank, hold, roll), and whose turn
state keeps the turn across several actions (Roll stays) and declares per-action targets."""

from tabletop_fixtures.dice_tray.definition.game import definition

__all__ = ["definition"]
