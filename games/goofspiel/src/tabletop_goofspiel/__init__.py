"""Goofspiel: two players bid cards from their hands, in secret, for prize cards turned up one a round."""

from tabletop_goofspiel.definition.game import definition

__all__ = ["definition"]
