"""Tic-tac-toe: two players take turns marking a 3x3 board; three in a line wins."""

from tabletop_tic_tac_toe.definition.game import definition

__all__ = ["definition"]
