"""Gallery's options."""

from tabletop import GameConfig


class GalleryConfig(GameConfig):
    """Gallery has no options: the rules fix money, rounds and deals (see ``components.rules``)."""
