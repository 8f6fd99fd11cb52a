"""Go Fish: ask another player for a rank you hold, collect books of four; most books wins."""

from tabletop_go_fish.definition.game import definition

__all__ = ["definition"]
