"""Tic-tac-toe's state models."""
