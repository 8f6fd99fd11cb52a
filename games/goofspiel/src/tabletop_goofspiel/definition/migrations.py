"""Goofspiel's migrations: how a match stored under an earlier logic version moves to this one."""

from tabletop import Migration
from tabletop.versions import Document


def drop_the_prize_deck(state: Document) -> Document:
    """2.0.0 -> 3.0.0: the shuffled ``prize_deck`` leaves the state.

    3.0.0 keeps no order of the prizes not turned up yet: each round's prize is a ``RevealPrize``
    chance point among 1..N minus the prizes seen. A running 2.0.0 match keeps its prize up,
    rounds, hands, bids and scores; its remaining prizes (the same set as the deck held, which is
    1..N minus those seen) come up in an order the engine draws afresh, one chance point a round,
    from the match's keyed PRNG. Nobody could see the deck's order (it was count-only), so no seat
    loses what it knew, and each order of the prizes left stays equally likely.
    """
    state.pop("prize_deck", None)
    return state


migrations = [
    Migration(
        from_version="2.0.0",
        to_version="3.0.0",
        state=drop_the_prize_deck,
        description="each round's prize is a chance point (RevealPrize); no shuffled deck in the state",
    ),
    Migration(
        from_version="3.0.0",
        to_version="4.0.0",
        description=(
            "a seat that loses on time is recorded as the framework's TimeExpired action; "
            "stored states and actions read as they are"
        ),
    ),
]
"""Every declared step, oldest first."""
