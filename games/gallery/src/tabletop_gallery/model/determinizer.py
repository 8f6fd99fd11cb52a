"""Gallery's determinizer: a full state consistent with one seat's view, for search bots."""

import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from tabletop.bots import fill_hidden
from tabletop.components import HydratedDrawBag
from tabletop.views import view_type

from tabletop_gallery.components.paintings import Painting, gallery_deck
from tabletop_gallery.model.game_state import GalleryGameState, HydratedGalleryGameState

__all__ = ["determinize"]


def determinize(view: BaseModel, seat: str | None, rng: random.Random) -> HydratedGalleryGameState:
    """A full Gallery state that ``seat``'s projected view cannot tell from the real one.

    Kept as seen: the seat's own hand and money, every public field (bought paintings, the lot,
    open bids, the discard, the values, the bank's ledger). Sampled with ``rng``:

    - the hands of the others and the deck: the paintings the seat cannot see (the 70 less its
      hand, the block, the bought and the discarded paintings) are shuffled and dealt, each
      other player as many as their ``hand_count``, the deck the rest;
    - the money of the others: the total is public (100 a player, plus what the bank paid, less
      what it received), so what the seat does not hold is split at random among them, each
      getting at least what the running auction shows they can pay (their highest open bid,
      the fixed price an auctioneer set);
    - the others' hidden sealed bids: each at most its bidder's sampled money.

    The PRNG, hidden from every view, gets a fresh seed drawn from ``rng``. Everything else is a
    structural copy of the view (:func:`tabletop.bots.fill_hidden`). A spectator's view (``seat``
    None) shows no hand and no money: all of them are sampled.

    No hidden value comes from a chance point: the deck is shuffled into the state at setup (by
    the game's PRNG), and the paintings come off it in order, so the unseen paintings are dealt
    here to the others' hands and to the deck as one shuffle.

    Args:
        view: ``seat``'s view of a Gallery state (``project(state, seat)``); not changed.
        seat: The player whose view it is; None for a spectator's view.
        rng: The bot's generator: the only source of randomness.

    Raises:
        ValueError: ``view`` is not ``seat``'s view of a Gallery state (the seat's hand or money
            is hidden, or the counts do not add up).
    """
    whose = "a spectator" if seat is None else repr(seat)
    if not isinstance(view, view_type(GalleryGameState, spectator=seat is None)):
        msg = f"not {whose}'s view of a Gallery state: a {type(view).__name__}"
        raise ValueError(msg)
    seen: Any = view  # a derived view type: its fields are the state's, read untyped
    players: Sequence[Any] = seen.players
    mine = next((player for player in players if player.player_id == seat), None)
    if seat is not None and (mine is None or mine.hand is None or mine.money is None):
        msg = f"not {whose}'s view of a Gallery state"
        raise ValueError(msg)
    others = [player for player in players if player is not mine]
    hands, deck = _deal_hidden_paintings(seen, mine, others, whose, rng)
    money, bids = _split_hidden_money(seen, mine, others, whose, rng)

    def fill(part: Any, name: str) -> object:
        if name == "deck":
            return deck
        if name == "hand":
            return hands[part.player_id]
        if name == "money":
            return money[part.player_id]
        return bids[part.participant_id]  # a sealed bid's amount

    return fill_hidden(view, HydratedGalleryGameState, fill, rng)


def _deal_hidden_paintings(
    seen: Any, mine: Any, others: list[Any], whose: str, rng: random.Random
) -> tuple[dict[str, list[Painting]], HydratedDrawBag[Painting]]:
    """The others' hands (by player id) and the deck: the unseen paintings, shuffled and dealt."""
    ids = {painting.id for painting in seen.discard}
    for player in seen.players:
        ids.update(painting.id for painting in player.bought)
    if mine is not None:
        ids.update(painting.id for painting in mine.hand)
    if seen.lot is not None:
        ids.update(painting.id for painting in seen.lot.paintings)
    unseen = [painting for painting in gallery_deck() if painting.id not in ids]
    sizes = [int(player.hand_count) for player in others]
    deck_count = int(seen.deck_count)
    if sum(sizes) + deck_count != len(unseen):
        msg = (
            f"{whose}'s view shows {sum(sizes)} paintings in other hands and {deck_count} in the deck, "
            f"but {len(unseen)} are unseen"
        )
        raise ValueError(msg)
    rng.shuffle(unseen)
    hands: dict[str, list[Painting]] = {}
    start = 0
    for player, size in zip(others, sizes, strict=True):
        hands[player.player_id] = unseen[start : start + size]
        start += size
    return hands, HydratedDrawBag[Painting](items=unseen[start:])


def _split_hidden_money(
    seen: Any, mine: Any, others: list[Any], whose: str, rng: random.Random
) -> tuple[dict[str, int], dict[str, int]]:
    """The others' money and their hidden sealed bids, by player id."""
    total = 100 * len(seen.players) + int(seen.bank_paid) - int(seen.bank_received)
    hidden = total - (0 if mine is None else int(mine.money))
    floors = {player.player_id: 0 for player in others}
    auction = seen.auction
    lot = seen.lot
    if auction is not None and auction.kind in {"open", "once-around"}:
        for entry in auction.history:
            if entry.amount is not None and entry.participant_id in floors:
                floors[entry.participant_id] = max(floors[entry.participant_id], int(entry.amount))
    if lot is not None and lot.price is not None and lot.auctioneer_id in floors:
        floors[lot.auctioneer_id] = max(floors[lot.auctioneer_id], int(lot.price))
    spare = hidden - sum(floors.values())
    if spare < 0:
        shown = sum(floors.values())
        msg = f"{whose}'s view leaves {hidden} money to the others, less than their bids show ({shown})"
        raise ValueError(msg)
    cuts = sorted(rng.randint(0, spare) for _ in range(len(others) - 1))
    shares = [high - low for low, high in zip([0, *cuts], [*cuts, spare], strict=True)]
    money = {
        player.player_id: floors[player.player_id] + share
        for player, share in zip(others, shares, strict=True)
    }
    if mine is not None:
        money[mine.player_id] = int(mine.money)
    bids: dict[str, int] = {}
    if auction is not None and auction.kind == "sealed":
        for bid in auction.bids:
            if getattr(bid, "amount", None) is None:
                bids[bid.participant_id] = rng.randint(0, money[bid.participant_id])
    return money, bids
