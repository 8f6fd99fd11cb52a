"""Go Fish's options."""

from tabletop import GameConfig


class GoFishConfig(GameConfig):
    """Go Fish has no options."""
