"""Go Fish's migrations: how a match stored under an earlier logic version moves to this one."""

from tabletop import Migration
from tabletop.components import standard_deck
from tabletop.versions import Document


def books_record_their_turn(state: Document) -> Document:
    """2.0.0 -> 3.0.0: each book is ``{"rank", "turn"}`` instead of a bare rank.

    The turn a 2.0.0 book was made in is not in the state (2.0.0 did not keep it), so migrated
    books say ``"turn": null`` rather than a guess; books made after the migration record theirs.
    """
    players = state["players"]
    assert isinstance(players, list)
    for player in players:
        assert isinstance(player, dict)
        books = player["books"]
        assert isinstance(books, list)
        player["books"] = [{"rank": rank, "turn": None} for rank in books]
    return state


def the_stock_is_unordered(state: Document) -> Document:
    """3.0.0 -> 4.0.0: the stock is the set of cards left, in standard deck order, not a shuffled pile.

    A 3.0.0 state holds the stock as a draw bag shuffled at the start (``{"items": [...]}``, top
    last). 4.0.0 keeps the same cards but not their order: the next card drawn is decided at the
    draw's chance point, among those left, each equally likely. The order was hidden from every
    seat, so forgetting it contradicts nothing a player saw: the match continues with the same
    hands, books and stock, and its draws are as likely as they were. What the table knew of each
    hand (``holds``, ``lacks``) was not recorded by 3.0.0 and starts empty.
    """
    deck = state["deck"]
    assert isinstance(deck, dict)
    items = deck["items"]
    assert isinstance(items, list)
    left = {(card["rank"], card["suit"]) for card in items if isinstance(card, dict)}
    state["deck"] = [
        card.model_dump(mode="json") for card in standard_deck() if (card.rank.value, card.suit.value) in left
    ]
    players = state["players"]
    assert isinstance(players, list)
    for player in players:
        assert isinstance(player, dict)
        player["holds"], player["lacks"] = [], []
    return state


def draws_record_their_outcome(action: Document) -> Document:
    """3.0.0 -> 4.0.0: a ``DrawCard`` records the card drawn as its chance ``outcome``.

    3.0.0 recorded it as ``metadata.card``; it moves, unchanged and still owner-only.
    """
    if action.get("type") == "DrawCard":
        metadata = action.get("metadata")
        if isinstance(metadata, dict):
            action["outcome"] = metadata.pop("card", None)
    return action


migrations = [
    Migration(
        from_version="2.0.0",
        to_version="3.0.0",
        state=books_record_their_turn,
        description="each book records the turn it was made in (null for books made before)",
    ),
    Migration(
        from_version="3.0.0",
        to_version="4.0.0",
        state=the_stock_is_unordered,
        action=draws_record_their_outcome,
        description="the deal and every draw are declared chance points; the stock keeps no order",
    ),
    Migration(
        from_version="4.0.0",
        to_version="5.0.0",
        description=(
            "a seat that loses on time is recorded as the framework's TimeExpired action; "
            "stored states and actions read as they are"
        ),
    ),
]
"""Every declared step, oldest first (2.0.0's recorded actions read the same under 3.0.0)."""
