"""Goofspiel's determinizer: a full state consistent with one seat's view, for search bots."""

import random
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from tabletop.bots import fill_hidden
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
    ``rng``. Everything else is kept as seen (a structural copy, :func:`tabletop.bots.fill_hidden`).
    A spectator's view (``seat`` None) hides every sealed bid: each is drawn from its bidder's hand.

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
    seen: Any = view  # a derived view type: its fields are the state's, read untyped
    hands: dict[str, Sequence[int]] = {player.player_id: player.hand for player in seen.players}
    if not hands or (seat is not None and seat not in hands):
        msg = f"not {whose}'s view of a Goofspiel state"
        raise ValueError(msg)

    def fill(part: Any, name: str) -> int:
        """A hidden bid (null in a player's view, left out of a spectator's): from the bidder's hand."""
        if part.participant_id == seat:
            msg = f"{seat!r}'s own bid is hidden: not {seat!r}'s view"
            raise ValueError(msg)
        return rng.choice(hands[part.participant_id])

    return fill_hidden(view, HydratedGoofspielGameState, fill, rng)
