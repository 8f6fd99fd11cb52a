"""Gallery: auction paintings by five artists over four rounds; the richest player wins."""

from tabletop_gallery.definition.game import definition

__all__ = ["definition"]
