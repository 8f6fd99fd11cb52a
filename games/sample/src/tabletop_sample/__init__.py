"""The sample game: players take turns adding 1..5 to a shared total; highest score wins."""

from tabletop_sample.definition.game import definition

__all__ = ["definition"]
