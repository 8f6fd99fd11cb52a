"""What every auction shares: participants, entries, results, tie rules and the common checks."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated

from pydantic import AfterValidator, Field

from tabletop._errors import IllegalActionError
from tabletop._model import Model

__all__ = [
    "AMOUNT_PATH",
    "AuctionEntry",
    "AuctionResult",
    "Participants",
    "TieBreak",
    "bidding_order",
    "require_minimum",
    "require_participant",
]

AMOUNT_PATH = "amount"
"""The field path auctions report for a bad bid amount."""


def _unique_participants(participants: Sequence[str]) -> Sequence[str]:
    """The participants, unchanged, if none is named twice (a view holds them as a tuple)."""
    if len(set(participants)) != len(participants):
        msg = f"participants must be unique, got {participants}"
        raise ValueError(msg)
    return participants


Participants = Annotated[
    list[str],
    Field(min_length=1, json_schema_extra={"uniqueItems": True}),
    AfterValidator(_unique_participants),
]
"""A non-empty list of distinct player ids, in bid order."""


class TieBreak(StrEnum):
    """Who wins when several participants share the highest bid."""

    FIRST_IN_ORDER = "first-in-order"
    """The tied participant who comes first in the bid order."""
    LAST_IN_ORDER = "last-in-order"
    """The tied participant who comes last in the bid order."""


class AuctionEntry(Model):
    """One participant's bid or pass, in the order they acted."""

    participant_id: str
    """Who acted."""
    amount: int | None = None
    """The amount bid; None for a pass."""


class AuctionResult(Model):
    """How a finished auction ended."""

    winner_id: str | None = None
    """Who won; None if nobody bid."""
    winning_bid: int | None = None
    """What the winner bid; None if nobody won."""
    tie: bool = False
    """True if several participants shared the highest bid (the tie rule chose the winner)."""
    tied_ids: list[str] = Field(default_factory=list)
    """Every participant who bid the highest amount, in bid order (the winner alone if no tie)."""


def bidding_order(seats: Sequence[str], seller: str, *, seller_bids: bool = True) -> list[str]:
    """The seats in bid order for an auction ``seller`` runs: from the seller's left, the seller last.

    Args:
        seats: Every seat in turn order (e.g. the turn manager's ``turn_order``).
        seller: The seat running the auction; one of ``seats``.
        seller_bids: False leaves the seller out (e.g. for a fixed-price offer to the others).

    Raises:
        ValueError: ``seller`` is not one of ``seats``.

    Example:
        >>> bidding_order(["a", "b", "c", "d"], "b")
        ['c', 'd', 'a', 'b']
        >>> bidding_order(["a", "b", "c"], "c", seller_bids=False)
        ['a', 'b']
    """
    order = list(seats)
    if seller not in order:
        msg = f"the seller {seller!r} is not one of the seats {order}"
        raise ValueError(msg)
    after = order.index(seller) + 1
    rotated = order[after:] + order[:after]
    return rotated if seller_bids else rotated[:-1]


def require_participant(participants: Sequence[str], participant_id: str) -> None:
    """Raise ``not-participant`` unless ``participant_id`` takes part in the auction."""
    if participant_id not in participants:
        raise IllegalActionError("not-participant", f"{participant_id!r} does not take part in this auction")


def require_minimum(amount: int, minimum: int, *, what: str) -> None:
    """Raise ``bid-too-low`` (at ``amount``) if ``amount`` is below ``minimum``.

    Args:
        amount: The amount bid.
        minimum: The lowest amount allowed.
        what: Why the minimum applies, for the message (e.g. ``"the minimum bid"``).
    """
    if amount < minimum:
        raise IllegalActionError(
            "bid-too-low", f"a bid of {amount} is below {what} ({minimum})", path=AMOUNT_PATH
        )
