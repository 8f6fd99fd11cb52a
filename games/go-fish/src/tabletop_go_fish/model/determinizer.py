"""Go Fish's determinizer: a full state consistent with one seat's view, for search bots."""

import random
from collections import Counter
from typing import Any

from pydantic import BaseModel
from tabletop.components import Card, standard_deck
from tabletop.views import view_type

from tabletop_go_fish.components.rules import BOOK_SIZE
from tabletop_go_fish.model.game_state import GoFishGameState, HydratedGoFishGameState

__all__ = ["DEALS", "determinize"]

DEALS = 100
"""Deals tried before one that gives another player a whole book is kept anyway."""


def determinize(view: BaseModel, seat: str | None, rng: random.Random) -> HydratedGoFishGameState:
    """A full Go Fish state that ``seat``'s projected view cannot tell from the real one.

    Everything the view shows is kept: the seat's own hand (in its order), the books, every
    public field. The cards the seat cannot see (the 52 minus its hand minus the four cards of
    each book) are shuffled with ``rng`` and dealt: each other player gets as many as their
    ``hand_count``, the deck the rest (``deck_count``, in shuffled order). A player lays a book
    down as soon as they hold four of a rank, so a deal that gives another player a whole book
    is shuffled again (up to :data:`DEALS` times; then the last deal stands). The PRNG, hidden
    from every view, gets a fresh seed drawn from ``rng``. Nothing else is read. A spectator's
    view (``seat`` None) shows no hand: every hand is dealt from the unseen cards.

    Args:
        view: ``seat``'s view of a Go Fish state (``project(state, seat)``); not changed.
        seat: The player whose view it is; None for a spectator's view.
        rng: The bot's generator: the only source of randomness.

    Raises:
        ValueError: ``view`` is not a player's view of a Go Fish state for ``seat`` (the
            seat's hand is not shown, or the counts do not add up to the unseen cards).
    """
    whose = "a spectator" if seat is None else repr(seat)
    if not isinstance(view, view_type(GoFishGameState, spectator=seat is None)):
        msg = f"not {whose}'s view of a Go Fish state: a {type(view).__name__}"
        raise ValueError(msg)
    data: dict[str, Any] = view.model_dump(mode="json")
    players: list[dict[str, Any]] = data["players"]
    mine = next((player for player in players if player["player_id"] == seat), None)
    if seat is not None and (mine is None or mine["hand"] is None):
        msg = f"not {whose}'s view of a Go Fish state"
        raise ValueError(msg)
    held = set() if mine is None else {Card.model_validate(card) for card in mine["hand"]}
    booked = {book["rank"] for player in players for book in player["books"]}
    unseen = [card for card in standard_deck() if card not in held and card.rank not in booked]
    others = [player for player in players if player is not mine]
    sizes = [int(player["hand_count"]) for player in others]
    deck_count = int(data.pop("deck_count"))
    if sum(sizes) + deck_count != len(unseen):
        msg = (
            f"{whose}'s view shows {sum(sizes)} cards in other hands and {deck_count} in the deck, "
            f"but {len(unseen)} cards are unseen"
        )
        raise ValueError(msg)
    hands = _deal(unseen, sizes, rng)
    for player, hand in zip(others, hands, strict=True):
        player["hand"] = hand
    for player in players:
        del player["hand_count"]
    data["deck"] = {"items": unseen[sum(sizes) :]}
    data["prng"] = {"seed": rng.getrandbits(32)}
    return HydratedGoFishGameState.model_validate(data)


def _deal(cards: list[Card], sizes: list[int], rng: random.Random) -> list[list[Card]]:
    """Shuffle ``cards`` in place and deal hands of ``sizes`` from the front, avoiding whole books."""
    hands: list[list[Card]] = []
    for _ in range(DEALS):
        rng.shuffle(cards)
        hands, start = [], 0
        for size in sizes:
            hands.append(cards[start : start + size])
            start += size
        if not any(_holds_book(hand) for hand in hands):
            break
    return hands


def _holds_book(hand: list[Card]) -> bool:
    return any(count >= BOOK_SIZE for count in Counter(card.rank for card in hand).values())
