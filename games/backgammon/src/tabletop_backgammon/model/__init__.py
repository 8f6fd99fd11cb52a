"""Backgammon's state models."""
