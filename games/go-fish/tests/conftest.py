"""Fixtures for Go Fish's tests.

Game modules are imported inside fixtures, not at module level: pytest loads conftest files
before typeguard's plugin installs its import hook, and an early import would go unchecked.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tabletop.components import Card
    from tabletop.testing import GameHarness
    from tabletop_go_fish.model.config import GoFishConfig
    from tabletop_go_fish.model.game_state import GoFishGameState, HydratedGoFishGameState

    Deal = Callable[..., None]


@pytest.fixture
def harness() -> GameHarness[HydratedGoFishGameState, GoFishConfig]:
    """A started two-player game with fixed ids (``p1`` on turn, ``p2``) and seed 42."""
    from tabletop.testing import GameHarness
    from tabletop_go_fish import definition

    return GameHarness(definition, players=2, seed=42)


@pytest.fixture
def deal() -> Deal:
    """Set up cards by code: ``deal(state, deck="2C 3C", p1="7H 7S", p2="")``.

    Hands are set for the players named (others keep theirs); ``deck`` replaces the stock when
    given (which card a draw takes is the draw's chance outcome). Books are left as they are.
    """
    from tabletop.components import Card

    def cards(codes: str) -> list[Card]:
        return [Card.from_code(code) for code in codes.split()]

    def deal_cards(state: GoFishGameState, deck: str | None = None, **hands: str) -> None:
        if deck is not None:
            state.deck = cards(deck)
        for player_id, codes in hands.items():
            state.player(player_id).hand = cards(codes)

    return deal_cards


@pytest.fixture
def census() -> Callable[[GoFishGameState], list[Card]]:
    """Every card in a game: the hands, the stock, and the four cards of each book."""
    from tabletop.components import Card, Suit

    def all_cards(state: GoFishGameState) -> list[Card]:
        hands = [card for player in state.players for card in player.hand]
        books = [
            Card(rank=book.rank, suit=suit)
            for player in state.players
            for book in player.books
            for suit in Suit
        ]
        return hands + list(state.deck) + books

    return all_cards
