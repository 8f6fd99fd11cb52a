"""Players that choose actions by themselves."""

from tabletop.bots._random import RandomBot, playout

__all__ = ["RandomBot", "playout"]
