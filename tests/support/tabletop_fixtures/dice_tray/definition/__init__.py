"""Dice tray declarations."""
