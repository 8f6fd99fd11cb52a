"""Hex: two players take turns placing stones; the first chain joining a player's two edges wins."""

from tabletop_hex.definition.game import definition

__all__ = ["definition"]
