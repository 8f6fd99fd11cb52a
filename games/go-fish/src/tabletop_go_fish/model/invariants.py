"""Go Fish's invariants: every one of the 52 cards is somewhere, exactly once."""

from collections import Counter
from collections.abc import Iterator

from tabletop.components import Card, Suit, standard_deck

from tabletop_go_fish.components.rules import BOOK_SIZE
from tabletop_go_fish.model.game_state import GoFishGameState


def invariants(state: GoFishGameState) -> Iterator[str]:
    """One line per broken rule: cards lost or duplicated, a rank booked twice, a book left in a
    hand, a book made in a turn that has not happened yet.

    The cards are the hands, the deck and the four cards of each book, and together they are
    a standard deck: each card exactly once.
    """
    booked = Counter(book.rank for player in state.players for book in player.books)
    for rank, times in sorted(booked.items()):
        if times > 1:
            yield f"rank {rank.value} is booked {times} times"
    cards = Counter(card for player in state.players for card in player.hand)
    cards.update(state.deck)
    cards.update(Card(rank=rank, suit=suit) for rank in booked for suit in Suit)
    missing = [card.code for card in standard_deck() if card not in cards]
    doubled = [f"{card.code} x{times}" for card, times in cards.items() if times > 1]
    if missing:
        yield f"{len(missing)} card(s) are nowhere: {' '.join(missing)}"
    if doubled:
        yield f"cards are in several places: {' '.join(doubled)}"
    turns = state.turn_manager.turn_count
    for player in state.players:
        late = [f"{book.rank.value}@{book.turn}" for book in player.books if (book.turn or 0) > turns]
        if late:
            yield f"{player.player_id} has books made after the current turn {turns}: {' '.join(late)}"
        ranks = Counter(card.rank for card in player.hand)
        full = [rank.value for rank, count in ranks.items() if count >= BOOK_SIZE]
        if full:
            yield f"{player.player_id} holds a book they did not lay down: {' '.join(full)}"
