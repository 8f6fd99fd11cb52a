"""Dice tray actions: one module per action, found by the definition."""
