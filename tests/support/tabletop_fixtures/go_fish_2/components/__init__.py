"""Go Fish's rule constants; the cards and the deck come from ``tabletop.components``."""
