"""Goofspiel's determinizer: a full state consistent with one seat's view, for search bots."""

import random
from typing import Any

from pydantic import BaseModel
from tabletop.views import view_type

from tabletop_goofspiel.model.game_state import GoofspielGameState, HydratedGoofspielGameState

__all__ = ["determinize"]


def determinize(view: BaseModel, seat: str | None, rng: random.Random) -> HydratedGoofspielGameState:
    """A full Goofspiel state that ``seat``'s projected view cannot tell from the real one.

    One thing is hidden from a player, and it is sampled with ``rng``: the opponent's sealed
    bid, if it is in (a card drawn from the opponent's hand, which is public: a bid card stays in
    the hand until the reveal). The prizes not turned up yet are in no state (each is decided by
    its ``RevealPrize`` chance point), so there is no future prize to sample: a search meets
    them as chance points. The PRNG, hidden from every view, gets a fresh seed drawn from
    ``rng``. Everything else is kept as seen. A spectator's view (``seat`` None) hides every
    sealed bid: each is drawn from its bidder's hand.

    Args:
        view: ``seat``'s view of a Goofspiel state (``project(state, seat)``); not changed.
        seat: The player whose view it is; None for a spectator's view.
        rng: The bot's generator: the only source of randomness.

    Raises:
        ValueError: ``view`` is not a player's view of a Goofspiel state for ``seat`` (the
            seat's own bid is hidden).
    """
    whose = "a spectator" if seat is None else repr(seat)
    if not isinstance(view, view_type(GoofspielGameState, spectator=seat is None)):
        msg = f"not {whose}'s view of a Goofspiel state: a {type(view).__name__}"
        raise ValueError(msg)
    data: dict[str, Any] = view.model_dump(mode="json")
    hands: dict[str, list[int]] = {player["player_id"]: player["hand"] for player in data["players"]}
    if not hands or (seat is not None and seat not in hands):
        msg = f"not {whose}'s view of a Goofspiel state"
        raise ValueError(msg)
    auction: dict[str, Any] | None = data["auction"]
    for bid in [] if auction is None else auction["bids"]:
        if bid.get("amount") is None:  # null in a player's view, left out of a spectator's
            if bid["participant_id"] == seat:
                msg = f"{seat!r}'s own bid is hidden: not {seat!r}'s view"
                raise ValueError(msg)
            bid["amount"] = rng.choice(hands[bid["participant_id"]])
    data["prng"] = {"seed": rng.getrandbits(32)}
    return HydratedGoofspielGameState.model_validate(data)
