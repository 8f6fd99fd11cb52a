"""Hearts's options."""

from tabletop import GameConfig


class HeartsConfig(GameConfig):
    """Options of Hearts; every option needs a default."""
