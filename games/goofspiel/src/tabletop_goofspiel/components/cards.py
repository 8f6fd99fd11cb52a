"""How many cards a game of Goofspiel is played with."""

DEFAULT_CARDS = 13
"""Cards per suit in a standard game: each hand and the prize deck hold 1..13."""
MAX_CARDS = 52
"""The most cards per suit the game can be configured with."""
