"""Gallery's invariants: every painting somewhere exactly once, and money only moved, never made."""

from collections import Counter
from collections.abc import Iterator

from tabletop_gallery.components.paintings import Artist, AuctionKind, gallery_deck
from tabletop_gallery.components.rules import AWARDS, ROUND_ENDING_COUNT, STARTING_MONEY
from tabletop_gallery.model.game_state import GalleryGameState


def invariants(state: GalleryGameState) -> Iterator[str]:
    """One line per broken rule.

    - The 70 paintings are in the hands, the deck, on the block, bought or discarded, each once.
    - The players' money adds up to 100 each plus what the bank paid, less what it received.
    - No artist has more than five paintings played this round, nor fewer than are bought or on the block.
    - Each ended round gave 30, 20, 10 (to as many artists as were played, three at most).
    - A lot is one painting or a pair of one artist whose second card is not a double; an
      auction runs only on a lot, among the players in bid order from the auctioneer's left,
      whose history names only them.
    - Paintings played are counted for exactly the five artists, and values name only them.
    """
    places: Counter[int] = Counter()
    for player in state.players:
        places.update(painting.id for painting in player.hand)
        places.update(painting.id for painting in player.bought)
    places.update(painting.id for painting in state.deck.items)
    places.update(painting.id for painting in state.discard)
    if state.lot is not None:
        places.update(painting.id for painting in state.lot.paintings)
    deck = {painting.id: painting for painting in gallery_deck()}
    missing = sorted(set(deck) - set(places))
    doubled = sorted(number for number, times in places.items() if times > 1)
    if missing:
        yield f"paintings nowhere: {missing}"
    if doubled:
        yield f"paintings in several places: {doubled}"
    held = sum(player.money for player in state.players)
    expected = STARTING_MONEY * len(state.players) + state.bank_paid - state.bank_received
    if held != expected:
        yield f"players hold {held} but the bank's ledger says {expected}"
    on_table = Counter(p.artist.value for player in state.players for p in player.bought)
    if state.lot is not None:
        on_table.update(p.artist.value for p in state.lot.paintings)
    artists = {artist.value for artist in Artist}
    if set(state.played) != artists:
        yield f"paintings played are counted for {sorted(state.played)}, not the five artists"
    for awarded in state.values:
        if not set(awarded) <= artists:
            yield f"a round's values name unknown artists: {sorted(set(awarded) - artists)}"
    for artist, count in state.played.items():
        if count > ROUND_ENDING_COUNT or count < on_table[artist]:
            yield f"{artist} has {count} played this round but {on_table[artist]} bought or on the block"
    for number, awarded in enumerate(state.values, start=1):
        given = sorted((value for value in awarded.values() if value), reverse=True)
        if tuple(given) != AWARDS[: len(given)]:
            yield f"round {number} gave the artists {given}"
    if len(state.values) != len(state.rounds.past_rounds):
        yield f"{len(state.rounds.past_rounds)} rounds ended but {len(state.values)} were scored"
    yield from _lot_problems(state)


def _lot_problems(state: GalleryGameState) -> Iterator[str]:
    lot = state.lot
    if lot is None:
        if state.auction is not None:
            yield "an auction runs with nothing on the block"
        return
    artists = {painting.artist for painting in lot.paintings}
    if len(artists) > 1:
        yield f"the lot mixes artists: {sorted(artists)}"
    if len(lot.paintings) == 2 and lot.paintings[1].kind is AuctionKind.DOUBLE:
        yield "a double was paired with a double"
    auction = state.auction
    order = list(state.turn_manager.turn_order)
    if lot.auctioneer_id not in order:
        yield f"the lot's auctioneer {lot.auctioneer_id!r} is not at the table"
        return
    if auction is not None:
        strangers = sorted(
            {entry.participant_id for entry in getattr(auction, "history", [])} - set(auction.participants)
        )
        if strangers:
            yield f"the auction's history names players outside its bid order: {strangers}"
        after = order.index(lot.auctioneer_id) + 1
        expected = order[after:] + order[:after]
        if auction.kind == "fixed-price":
            expected = expected[:-1]
        if auction.participants != expected:
            yield f"the auction's bid order {auction.participants} is not {expected}"
