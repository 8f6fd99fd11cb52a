"""The once-around auction: each participant, in bid order, bids once or passes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop._errors import IllegalActionError
from tabletop._hydration import Hydrated
from tabletop._model import Model
from tabletop.components._auction import (
    AuctionEntry,
    AuctionResult,
    Participants,
    require_minimum,
    require_participant,
)

__all__ = ["HydratedOnceAroundAuction", "OnceAroundAuction"]


class OnceAroundAuction(Model):
    """A once-around auction: every participant acts exactly once, in bid order.

    Each participant bids or passes; once everyone has acted the highest bid wins, and among
    equal bids the one made first (earliest in bid order) wins. By default (the classic rule) a
    bid must exceed the current high bid, so equal bids cannot happen; with ``must_exceed``
    off a bid need only reach the minimum, and an equal bid does not take the lead.
    """

    kind: Literal["once-around"] = "once-around"
    """The auction tag."""
    participants: Participants
    """Who takes part, in bid order; the first acts first."""
    minimum_bid: int = Field(default=0, ge=0)
    """The lowest bid allowed."""
    must_exceed: bool = True
    """True if a bid must be higher than the current high bid (the classic once-around)."""
    history: list[AuctionEntry] = Field(default_factory=list)
    """Every bid and pass so far, in bid order."""


class HydratedOnceAroundAuction(OnceAroundAuction, Hydrated[OnceAroundAuction]):
    """Once-around behaviour: whose turn it is, the high bid, checked bids and passes.

    Example:
        >>> auction = HydratedOnceAroundAuction(participants=["a", "b", "c"])
        >>> auction.bid("a", 3)
        >>> auction.pass_("b")
        >>> auction.bid("c", 4)
        >>> (auction.is_over, auction.winner, auction.winning_bid)
        (True, 'c', 4)
    """

    @property
    def to_act(self) -> str | None:
        """Whose turn it is to bid or pass; None once everyone has acted."""
        acted = len(self.history)
        return self.participants[acted] if acted < len(self.participants) else None

    @property
    def is_over(self) -> bool:
        """True once every participant has bid or passed."""
        return len(self.history) >= len(self.participants)

    @property
    def high_bid(self) -> int | None:
        """The current high bid, if anyone has bid."""
        amounts = [entry.amount for entry in self.history if entry.amount is not None]
        return max(amounts) if amounts else None

    @property
    def high_bidder(self) -> str | None:
        """Who leads: the first participant (in bid order) to bid the high bid; None if nobody bid."""
        high = self.high_bid
        for entry in self.history:
            if high is not None and entry.amount == high:
                return entry.participant_id
        return None

    @property
    def tied_ids(self) -> list[str]:
        """Every participant who bid the high bid, in bid order (one at most with ``must_exceed``)."""
        high = self.high_bid
        return [entry.participant_id for entry in self.history if high is not None and entry.amount == high]

    @property
    def minimum_next_bid(self) -> int:
        """The lowest amount the next bid may be."""
        high = self.high_bid
        if high is None or not self.must_exceed:
            return self.minimum_bid
        return max(self.minimum_bid, high + 1)

    @property
    def winner(self) -> str | None:
        """The winner once everyone has acted; None while it runs or if nobody bid."""
        return self.high_bidder if self.is_over else None

    @property
    def winning_bid(self) -> int | None:
        """The winning bid once everyone has acted; None while it runs or if nobody bid."""
        return self.high_bid if self.is_over else None

    @property
    def result(self) -> AuctionResult | None:
        """How the auction ended; None while it runs."""
        if not self.is_over:
            return None
        tied = self.tied_ids
        return AuctionResult(
            winner_id=self.high_bidder, winning_bid=self.high_bid, tie=len(tied) > 1, tied_ids=tied
        )

    def check_bid(self, participant_id: str, amount: int) -> None:
        """Raise :class:`IllegalActionError` unless ``participant_id`` may bid ``amount`` now.

        Codes, in the order checked: ``not-participant``, ``auction-over``, ``already-bid`` or
        ``already-passed`` (they have acted), ``not-your-turn-to-bid``, ``bid-too-low`` (path
        ``amount``: below the minimum bid or, with ``must_exceed``, not above the high bid).
        """
        self._check_turn(participant_id)
        high = self.high_bid
        exceeding = high is not None and self.must_exceed
        what = f"one more than the high bid {high}" if exceeding else "the minimum bid"
        require_minimum(amount, self.minimum_next_bid, what=what)

    def bid(self, participant_id: str, amount: int) -> None:
        """Make ``participant_id``'s one bid (checked as :meth:`check_bid`)."""
        self.check_bid(participant_id, amount)
        self.history.append(AuctionEntry(participant_id=participant_id, amount=amount))

    def check_pass(self, participant_id: str) -> None:
        """Raise :class:`IllegalActionError` unless ``participant_id`` may pass now.

        Codes: ``not-participant``, ``auction-over``, ``already-bid``, ``already-passed``,
        ``not-your-turn-to-bid``.
        """
        self._check_turn(participant_id)

    def pass_(self, participant_id: str) -> None:
        """Pass instead of bidding (checked as :meth:`check_pass`)."""
        self.check_pass(participant_id)
        self.history.append(AuctionEntry(participant_id=participant_id))

    def _check_turn(self, participant_id: str) -> None:
        require_participant(self.participants, participant_id)
        if self.is_over:
            raise IllegalActionError("auction-over", "the auction is over")
        for entry in self.history:
            if entry.participant_id == participant_id:
                code = "already-passed" if entry.amount is None else "already-bid"
                raise IllegalActionError(code, f"{participant_id!r} has already acted in this auction")
        to_act = self.to_act
        if participant_id != to_act:
            raise IllegalActionError(
                "not-your-turn-to-bid", f"it is {to_act!r}'s turn to bid, not {participant_id!r}'s"
            )
