"""Go Fish's migrations: how a match stored under an earlier logic version moves to this one."""

from tabletop import Migration
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


migrations = [
    Migration(
        from_version="2.0.0",
        to_version="3.0.0",
        state=books_record_their_turn,
        description="each book records the turn it was made in (null for books made before)",
    )
]
"""Every declared step, oldest first. Recorded actions read the same under 3.0.0 (no action step)."""
