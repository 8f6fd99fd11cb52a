"""Hearts: players take turns; the player on turn may end the game, and wins it."""

from tabletop_hearts.definition.game import definition

__all__ = ["definition"]
