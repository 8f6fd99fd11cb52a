"""The simultaneous sealed-bid auction: everyone bids once, in secret; the bids show when all are in."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from tabletop._errors import IllegalActionError
from tabletop._hydration import Hydrated
from tabletop._model import Model
from tabletop._visibility import Owner, OwnerOnly
from tabletop.components._auction import (
    AuctionResult,
    Participants,
    TieBreak,
    require_minimum,
    require_participant,
)

__all__ = ["HydratedSealedBidAuction", "SealedBid", "SealedBidAuction"]


class SealedBid(Model):
    """One participant's secret bid: only its participant sees the amount (a view hides it from others).

    The amount is owner-only (:mod:`tabletop.views`): in every other player's view it is null, and
    a spectator's view leaves it out; who has bid stays public. A game shows the bids once the
    auction is over by copying them into a public field or a revealing action's metadata.
    """

    participant_id: Annotated[str, Owner()]
    """Who bid (the owner of the bid)."""
    amount: Annotated[int, OwnerOnly()]
    """The amount bid; secret to its participant."""


class SealedBidAuction(Model):
    """A simultaneous sealed-bid auction.

    Every participant submits exactly one bid, in any order, and nobody may pass. Once all bids
    are in, the highest bid wins; if several participants share it, ``tie_break`` picks the
    first or the last of them in bid order (the order of ``participants``, not of submission),
    and the result says that it was a tie and who tied.
    """

    kind: Literal["sealed"] = "sealed"
    """The auction tag."""
    participants: Participants
    """Who takes part, in bid order (the order ties are broken in)."""
    minimum_bid: int = Field(default=0, ge=0)
    """The lowest bid allowed."""
    tie_break: TieBreak = TieBreak.FIRST_IN_ORDER
    """Which of several participants sharing the highest bid wins."""
    bids: list[SealedBid] = Field(default_factory=list)
    """The bids submitted so far, in submission order; each is secret to its bidder until all are in."""


class HydratedSealedBidAuction(SealedBidAuction, Hydrated[SealedBidAuction]):
    """Sealed-bid behaviour: checked bids, who is still to bid, and the resolution once all are in.

    Nothing here reveals a bid before every participant has bid, except :meth:`bid_of`, which is
    for the bid's own participant.

    Example:
        >>> auction = HydratedSealedBidAuction(participants=["a", "b"])
        >>> auction.bid("b", 4)
        >>> auction.bid("a", 4)
        >>> (auction.winner, auction.winning_bid, auction.tied_ids)
        ('a', 4, ['a', 'b'])
    """

    def has_bid(self, participant_id: str) -> bool:
        """True if ``participant_id`` has submitted their bid."""
        return any(bid.participant_id == participant_id for bid in self.bids)

    def bid_of(self, participant_id: str) -> int | None:
        """``participant_id``'s bid, if they have submitted it (secret: show it to them only)."""
        for bid in self.bids:
            if bid.participant_id == participant_id:
                return bid.amount
        return None

    @property
    def waiting_for(self) -> list[str]:
        """The participants who have not bid yet, in bid order."""
        return [participant for participant in self.participants if not self.has_bid(participant)]

    @property
    def is_over(self) -> bool:
        """True once every participant has bid."""
        return len(self.bids) >= len(self.participants)

    def revealed_bids(self) -> dict[str, int]:
        """Every bid by participant, in bid order, once all are in.

        Raises:
            ValueError: Some participant has not bid yet (the bids are still secret).
        """
        if not self.is_over:
            msg = f"the bids are secret until everyone has bid; waiting for {self.waiting_for}"
            raise ValueError(msg)
        amounts = {bid.participant_id: bid.amount for bid in self.bids}
        return {participant: amounts[participant] for participant in self.participants}

    @property
    def tied_ids(self) -> list[str]:
        """Every participant who bid the highest amount, in bid order; empty until all are in."""
        if not self.is_over:
            return []
        revealed = self.revealed_bids()
        high = max(revealed.values())
        return [participant for participant, amount in revealed.items() if amount == high]

    @property
    def tie(self) -> bool:
        """True once all bids are in if several participants share the highest bid."""
        return len(self.tied_ids) > 1

    @property
    def winner(self) -> str | None:
        """The winner once all bids are in (the tie rule decides a tie); None until then."""
        tied = self.tied_ids
        if not tied:
            return None
        return tied[0] if self.tie_break is TieBreak.FIRST_IN_ORDER else tied[-1]

    @property
    def winning_bid(self) -> int | None:
        """The highest bid once all bids are in; None until then."""
        winner = self.winner
        return None if winner is None else self.bid_of(winner)

    @property
    def result(self) -> AuctionResult | None:
        """How the auction ended; None until every participant has bid."""
        if not self.is_over:
            return None
        tied = self.tied_ids
        return AuctionResult(
            winner_id=self.winner, winning_bid=self.winning_bid, tie=len(tied) > 1, tied_ids=tied
        )

    def check_bid(self, participant_id: str, amount: int) -> None:
        """Raise :class:`IllegalActionError` unless ``participant_id`` may bid ``amount`` now.

        Codes, in the order checked: ``not-participant``, ``auction-over``, ``already-bid``,
        ``bid-too-low`` (path ``amount``: below the minimum bid).
        """
        self._check_open(participant_id)
        if self.has_bid(participant_id):
            raise IllegalActionError("already-bid", f"{participant_id!r} has already bid")
        require_minimum(amount, self.minimum_bid, what="the minimum bid")

    def bid(self, participant_id: str, amount: int) -> None:
        """Submit ``participant_id``'s one secret bid (checked as :meth:`check_bid`)."""
        self.check_bid(participant_id, amount)
        self.bids.append(SealedBid(participant_id=participant_id, amount=amount))

    def check_pass(self, participant_id: str) -> None:
        """Always raise: nobody may pass a sealed-bid auction.

        Codes: ``not-participant``, ``auction-over``, else ``passing-not-allowed``.
        """
        self._check_open(participant_id)
        raise IllegalActionError("passing-not-allowed", "every participant must bid in a sealed-bid auction")

    def pass_(self, participant_id: str) -> None:
        """Always raise (see :meth:`check_pass`); here so every auction has the same verbs."""
        self.check_pass(participant_id)

    def _check_open(self, participant_id: str) -> None:
        require_participant(self.participants, participant_id)
        if self.is_over:
            raise IllegalActionError("auction-over", "every bid is in; the auction is over")
