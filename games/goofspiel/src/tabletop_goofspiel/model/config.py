"""Goofspiel's options (``points_order`` has OpenSpiel's ``goofspiel`` meaning)."""

from typing import Literal

from pydantic import Field
from tabletop import GameConfig

from tabletop_goofspiel.components.cards import DEFAULT_CARDS, MAX_CARDS

PointsOrder = Literal["random", "descending", "ascending"]
"""The order the prizes come up in: by chance, N down to 1, or 1 up to N."""


class GoofspielConfig(GameConfig):
    """Options of Goofspiel (OpenSpiel's ``goofspiel`` with ``num_cards`` = ``cards``)."""

    cards: int = Field(default=DEFAULT_CARDS, ge=1, le=MAX_CARDS)
    """N: each player's hand and the prizes are the cards 1..N, and the game lasts N rounds."""
    points_order: PointsOrder = "random"
    """The order the prizes come up in (OpenSpiel's ``points_order``): ``random``, each round's
    prize revealed by a ``RevealPrize`` chance point among those not up yet; ``descending``
    (N first) or ``ascending`` (1 first), with no chance."""
