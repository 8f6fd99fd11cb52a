"""Tic-tac-toe's options."""

from tabletop import GameConfig


class TicTacToeConfig(GameConfig):
    """Tic-tac-toe has no options."""
