"""What Hex knows about one player."""

from tabletop import PlayerState

from tabletop_hex.components.sides import Connects


class HexPlayerState(PlayerState):
    """A Hex player: the edges they join; their stones are on the board."""

    connects: Connects = Connects.TOP_BOTTOM
    """The pair of opposite edges this player must join: the first player's top and bottom."""
