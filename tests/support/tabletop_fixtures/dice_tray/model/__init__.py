"""Dice tray models."""
