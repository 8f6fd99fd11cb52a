"""Goofspiel's options."""

from pydantic import Field
from tabletop import GameConfig

from tabletop_goofspiel.components.cards import DEFAULT_CARDS, MAX_CARDS


class GoofspielConfig(GameConfig):
    """Options of Goofspiel."""

    cards: int = Field(default=DEFAULT_CARDS, ge=1, le=MAX_CARDS)
    """N: each player's hand and the prize deck hold the cards 1..N, and the game lasts N rounds."""
