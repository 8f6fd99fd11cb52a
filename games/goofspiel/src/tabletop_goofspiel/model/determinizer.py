"""Goofspiel's determinizer: a full state consistent with one seat's view, for search bots."""

import random
from typing import Any

from pydantic import BaseModel
from tabletop.views import view_type

from tabletop_goofspiel.model.game_state import GoofspielGameState, HydratedGoofspielGameState

__all__ = ["determinize"]


def determinize(view: BaseModel, seat: str | None, rng: random.Random) -> HydratedGoofspielGameState:
    """A full Goofspiel state that ``seat``'s projected view cannot tell from the real one.

    Two things are hidden from a player, and both are sampled with ``rng``: the opponent's
    sealed bid, if it is in (a card drawn from the opponent's hand, which is public: a bid card
    stays in the hand until the reveal), and the order of the face-down prize deck (the prizes
    1..N minus those of the resolved rounds and the one up now, shuffled). The PRNG, hidden
    from every view, gets a fresh seed drawn from ``rng``. Everything else is kept as seen. A
    spectator's view (``seat`` None) hides every sealed bid: each is drawn from its bidder's hand.

    Args:
        view: ``seat``'s view of a Goofspiel state (``project(state, seat)``); not changed.
        seat: The player whose view it is; None for a spectator's view.
        rng: The bot's generator: the only source of randomness.

    Raises:
        ValueError: ``view`` is not a player's view of a Goofspiel state for ``seat`` (the
            seat's own bid is hidden, or the prize count does not match the prizes seen).
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
    prize: int | None = data["prize"]
    shown = {record["prize"] for record in data["rounds"]} | ({prize} if prize is not None else set())
    count = int(data.pop("prize_deck_count"))
    # Every player's 1..N is in hand or spent in a round (the spectator counts the first seat's).
    cards = len(hands[seat if seat is not None else next(iter(hands))]) + len(data["rounds"])
    remaining = [card for card in range(1, cards + 1) if card not in shown]
    if len(remaining) != count:
        msg = f"{whose}'s view shows {count} face-down prizes, but {len(remaining)} are unaccounted for"
        raise ValueError(msg)
    rng.shuffle(remaining)
    data["prize_deck"] = remaining
    data["prng"] = {"seed": rng.getrandbits(32)}
    return HydratedGoofspielGameState.model_validate(data)
