"""Pig: roll a die as often as you dare, a 1 loses the turn's points; first to the target wins."""

from tabletop_pig.definition.game import definition

__all__ = ["definition"]
