"""The sample game's options."""

from tabletop import GameConfig


class SampleConfig(GameConfig):
    """Options of the sample game."""

    big_totals_allowed: bool = False
    """Play to BIG_MAX_TOTAL (100) instead of DEFAULT_MAX_TOTAL (25)."""
