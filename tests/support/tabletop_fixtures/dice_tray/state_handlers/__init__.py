"""Dice tray handlers."""
