"""Go Fish's determinizer: a full state consistent with one seat's view, for search bots."""

import random
from collections import Counter
from typing import Any

from pydantic import BaseModel
from tabletop.bots import fill_hidden
from tabletop.components import Card, Rank, standard_deck
from tabletop.views import view_type

from tabletop_go_fish.components.rules import BOOK_SIZE
from tabletop_go_fish.model.game_state import GoFishGameState, HydratedGoFishGameState

__all__ = ["DEALS", "determinize"]

_DECK = standard_deck()  # frozen cards, shared

DEALS = 100
"""Random deals tried before the unseen cards are dealt without what the table knows (not seen in play)."""


def determinize(view: BaseModel, seat: str | None, rng: random.Random) -> HydratedGoFishGameState:
    """A full Go Fish state that ``seat``'s projected view cannot tell from the real one.

    Everything the view shows is kept: the seat's own hand (in its order), the books, every
    public field. The cards the seat cannot see (the 52 minus its hand minus the four cards of
    each book) are dealt with ``rng`` to the other players, each as many as their ``hand_count``,
    consistently with what the table knows of each hand: a player gets a card of each rank in
    their ``holds`` (they asked for it or showed it) and none of a rank in their ``lacks`` (they
    handed it over or said "go fish" since their last draw), and never four of a rank (a book is
    laid down at once). The rest is the stock, in standard deck order like the game's: which card
    a draw takes is decided at the draw's chance point, so a search samples it there. Deals are
    tried up to :data:`DEALS` times; if none fits (not seen in play: the real hands always fit),
    the unseen cards are dealt in shuffled order to the right counts, what is known ignored. The
    PRNG, hidden from every view, gets a fresh seed drawn from ``rng``. A spectator's view
    (``seat`` None) deals every hand.

    The state is built by :func:`tabletop.bots.fill_hidden`: a structural copy of the view (no
    dump, no validation), with the dealt hands and the stock filled in.

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
    data: dict[str, Any] = vars(view)  # the view's fields, not copied: read only
    players: list[dict[str, Any]] = [vars(player) for player in data["players"]]
    mine = next((player for player in players if player["player_id"] == seat), None)
    if seat is not None and (mine is None or mine["hand"] is None):
        msg = f"not {whose}'s view of a Go Fish state"
        raise ValueError(msg)
    held: set[Card] = set() if mine is None else set(mine["hand"])
    booked = {book.rank for player in players for book in player["books"]}
    unseen = [card for card in _DECK if card not in held and card.rank not in booked]
    others = [player for player in players if player is not mine]
    sizes = [int(player["hand_count"]) for player in others]
    deck_count = int(data["deck_count"])
    if sum(sizes) + deck_count != len(unseen):
        msg = (
            f"{whose}'s view shows {sum(sizes)} cards in other hands and {deck_count} in the deck, "
            f"but {len(unseen)} cards are unseen"
        )
        raise ValueError(msg)
    known = [(set(player["holds"]), set(player["lacks"])) for player in others]
    dealt = _deal(unseen, sizes, known, rng)
    hands = {str(player["player_id"]): hand for player, hand in zip(others, dealt, strict=True)}
    in_hands = {card for hand in dealt for card in hand}
    deck = [card for card in unseen if card not in in_hands]

    def fill(part: BaseModel, name: str) -> object:
        if name == "hand":
            return hands[str(vars(part)["player_id"])]
        if name == "deck":
            return deck
        msg = f"Go Fish hides no field {name!r}"  # pragma: no cover - the game's visibility
        raise ValueError(msg)

    return fill_hidden(view, HydratedGoFishGameState, fill, rng)


def _deal(
    cards: list[Card], sizes: list[int], known: list[tuple[set[Rank], set[Rank]]], rng: random.Random
) -> list[list[Card]]:
    """Hands of ``sizes`` from ``cards`` (the rest stays in the stock), each with a card of every
    rank it holds, none of a rank it lacks, no four of a rank; unconstrained if no try fits."""
    for _ in range(DEALS):
        free = list(cards)
        rng.shuffle(free)
        hands: list[list[Card]] = [[] for _ in sizes]
        counts: list[Counter[Rank]] = [Counter() for _ in sizes]
        for hand, count, (holds, _lacks) in zip(hands, counts, known, strict=True):
            for rank in (rank for rank in Rank if rank in holds):
                at = next((at for at, card in enumerate(free) if card.rank is rank), None)
                if at is not None:
                    hand.append(free.pop(at))
                    count[rank] += 1
        room = [size - len(hand) for size, hand in zip(sizes, hands, strict=True)]
        stock = len(free) - sum(room)
        if min(room, default=0) < 0 or stock < 0:
            continue
        for card in free:
            rank = card.rank
            places = [
                seat
                for seat, left in enumerate(room)
                if left and rank not in known[seat][1] and counts[seat][rank] < BOOK_SIZE - 1
            ]
            places += [-1] if stock else []  # -1: the stock, which takes any card
            if not places:
                break
            (choice,) = rng.choices(places, weights=[stock if seat < 0 else room[seat] for seat in places])
            if choice < 0:
                stock -= 1
            else:
                hands[choice].append(card)
                counts[choice][rank] += 1
                room[choice] -= 1
        else:
            return hands
    return _fallback(cards, sizes, rng)


def _fallback(cards: list[Card], sizes: list[int], rng: random.Random) -> list[list[Card]]:
    """The unseen cards shuffled and dealt in order: the right counts, what is known ignored."""
    free = list(cards)
    rng.shuffle(free)
    hands, start = [], 0
    for size in sizes:
        hands.append(free[start : start + size])
        start += size
    return hands
