"""The open ascending (English) auction: raise the high bid in turn, or pass and drop out."""

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

__all__ = ["HydratedOpenAuction", "OpenAuction"]


class OpenAuction(Model):
    """An open ascending auction.

    The participants act in turn, in bid order, each either raising the high bid or passing; a
    pass drops the participant out for good. The auction ends when the high bidder is the only
    one left (they win at their bid), or when everyone passed without a bid (nobody wins).
    """

    kind: Literal["open"] = "open"
    """The auction tag."""
    participants: Participants
    """Who takes part, in bid order; the first acts first."""
    minimum_bid: int = Field(default=0, ge=0)
    """The lowest opening bid."""
    minimum_increment: int = Field(default=1, ge=1)
    """How much a bid must exceed the current high bid by, at least."""
    history: list[AuctionEntry] = Field(default_factory=list)
    """Every bid and pass so far, in the order they were made."""


class HydratedOpenAuction(OpenAuction, Hydrated[OpenAuction]):
    """Open-auction behaviour: whose turn it is, the high bid, checked bids and passes.

    Example:
        >>> auction = HydratedOpenAuction(participants=["a", "b"], minimum_bid=5)
        >>> auction.bid("a", 5)
        >>> auction.pass_("b")
        >>> (auction.is_over, auction.winner, auction.winning_bid)
        (True, 'a', 5)
    """

    @property
    def passed_ids(self) -> list[str]:
        """The participants who passed (and so dropped out), in bid order."""
        passed = {entry.participant_id for entry in self.history if entry.amount is None}
        return [participant for participant in self.participants if participant in passed]

    @property
    def remaining(self) -> list[str]:
        """The participants still in the auction, in bid order."""
        passed = set(self.passed_ids)
        return [participant for participant in self.participants if participant not in passed]

    @property
    def high_bid(self) -> int | None:
        """The current high bid, if anyone has bid."""
        for entry in reversed(self.history):
            if entry.amount is not None:
                return entry.amount
        return None

    @property
    def high_bidder(self) -> str | None:
        """Who made the current high bid, if anyone has bid."""
        for entry in reversed(self.history):
            if entry.amount is not None:
                return entry.participant_id
        return None

    @property
    def is_over(self) -> bool:
        """True once the high bidder alone remains, or everyone passed."""
        remaining = self.remaining
        return not remaining or (len(remaining) == 1 and self.high_bidder == remaining[0])

    @property
    def to_act(self) -> str | None:
        """Whose turn it is to bid or pass; None once the auction is over.

        The first participant opens; afterwards the turn goes to the next participant still in,
        after whoever acted last, wrapping around the bid order.
        """
        if self.is_over:
            return None
        if not self.history:
            return self.participants[0]
        remaining = set(self.remaining)
        after = self.participants.index(self.history[-1].participant_id) + 1
        order = self.participants[after:] + self.participants[:after]
        return next(participant for participant in order if participant in remaining)

    @property
    def minimum_next_bid(self) -> int:
        """The lowest amount the next bid may be."""
        high = self.high_bid
        return self.minimum_bid if high is None else max(self.minimum_bid, high + self.minimum_increment)

    @property
    def winner(self) -> str | None:
        """The winner once the auction is over; None while it runs or if nobody bid."""
        return self.high_bidder if self.is_over else None

    @property
    def winning_bid(self) -> int | None:
        """The winning bid once the auction is over; None while it runs or if nobody bid."""
        return self.high_bid if self.is_over else None

    @property
    def result(self) -> AuctionResult | None:
        """How the auction ended; None while it runs. An open auction never ends in a tie."""
        if not self.is_over:
            return None
        winner = self.high_bidder
        return AuctionResult(
            winner_id=winner, winning_bid=self.high_bid, tied_ids=[] if winner is None else [winner]
        )

    def check_bid(self, participant_id: str, amount: int) -> None:
        """Raise :class:`IllegalActionError` unless ``participant_id`` may bid ``amount`` now.

        Codes, in the order checked: ``not-participant``, ``auction-over``, ``already-passed``,
        ``not-your-turn-to-bid``, ``bid-too-low`` (path ``amount``: below the minimum bid, or not
        above the high bid by the minimum increment).
        """
        self._check_turn(participant_id)
        high = self.high_bid
        what = "the minimum bid" if high is None else f"the high bid {high} plus the minimum increment"
        require_minimum(amount, self.minimum_next_bid, what=what)

    def bid(self, participant_id: str, amount: int) -> None:
        """Raise the high bid to ``amount`` (checked as :meth:`check_bid`)."""
        self.check_bid(participant_id, amount)
        self.history.append(AuctionEntry(participant_id=participant_id, amount=amount))

    def check_pass(self, participant_id: str) -> None:
        """Raise :class:`IllegalActionError` unless ``participant_id`` may pass now.

        Codes: ``not-participant``, ``auction-over``, ``already-passed``, ``not-your-turn-to-bid``.
        """
        self._check_turn(participant_id)

    def pass_(self, participant_id: str) -> None:
        """Pass and drop out of the auction (checked as :meth:`check_pass`)."""
        self.check_pass(participant_id)
        self.history.append(AuctionEntry(participant_id=participant_id))

    def _check_turn(self, participant_id: str) -> None:
        require_participant(self.participants, participant_id)
        if self.is_over:
            raise IllegalActionError("auction-over", "the auction is over")
        if participant_id in self.passed_ids:
            raise IllegalActionError("already-passed", f"{participant_id!r} passed and is out")
        to_act = self.to_act
        if participant_id != to_act:
            raise IllegalActionError(
                "not-your-turn-to-bid", f"it is {to_act!r}'s turn to bid, not {participant_id!r}'s"
            )
