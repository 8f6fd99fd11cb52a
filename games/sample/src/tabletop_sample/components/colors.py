"""The sample game's palette and totals."""

COLORS = ("red", "blue", "green", "yellow", "purple", "orange")
"""One colour per seat; the palette caps the game at six players."""
AMOUNT_PER_TURN = 5
"""What a player may add at the start of each turn."""
DEFAULT_MAX_TOTAL = 25
"""The total that ends a normal game."""
BIG_MAX_TOTAL = 100
"""The total that ends a game with big totals allowed."""
