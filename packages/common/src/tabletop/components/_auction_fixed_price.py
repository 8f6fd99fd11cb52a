"""The fixed-price offer: the seller names a price; in order, each participant may buy at it."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tabletop._errors import IllegalActionError
from tabletop._hydration import Hydrated
from tabletop._model import Model
from tabletop.components._auction import AuctionEntry, AuctionResult, Participants, require_participant

__all__ = ["FixedPriceAuction", "HydratedFixedPriceAuction"]


class FixedPriceAuction(Model):
    """A fixed-price offer: one price, taken by the first participant (in bid order) who wants it.

    Each participant in turn buys at ``price`` or passes; the first to buy wins and the offer
    ends. If everyone passes, nobody wins (a game decides what then happens to the lot, e.g.
    the seller must buy it).
    """

    kind: Literal["fixed-price"] = "fixed-price"
    """The auction tag."""
    participants: Participants
    """Who may buy, in bid order; the first is asked first."""
    price: int = Field(ge=0)
    """The price every participant is offered."""
    history: list[AuctionEntry] = Field(default_factory=list)
    """Every answer so far, in order: a pass (no amount), or the purchase at ``price`` (the last)."""


class HydratedFixedPriceAuction(FixedPriceAuction, Hydrated[FixedPriceAuction]):
    """Fixed-price behaviour: whose turn it is to answer, checked purchases and passes.

    Example:
        >>> offer = HydratedFixedPriceAuction(participants=["a", "b", "c"], price=12)
        >>> offer.pass_("a")
        >>> offer.buy("b")
        >>> (offer.is_over, offer.winner, offer.winning_bid, offer.to_act)
        (True, 'b', 12, None)
    """

    @property
    def buyer(self) -> str | None:
        """Who bought at the price, if anyone has."""
        for entry in self.history:
            if entry.amount is not None:
                return entry.participant_id
        return None

    @property
    def is_over(self) -> bool:
        """True once someone bought, or every participant passed."""
        return self.buyer is not None or len(self.history) >= len(self.participants)

    @property
    def to_act(self) -> str | None:
        """Who answers next; None once the offer is over."""
        return None if self.is_over else self.participants[len(self.history)]

    @property
    def winner(self) -> str | None:
        """The buyer once the offer is over; None while it runs or if everyone passed."""
        return self.buyer

    @property
    def winning_bid(self) -> int | None:
        """The price, if someone bought; None otherwise."""
        return None if self.buyer is None else self.price

    @property
    def result(self) -> AuctionResult | None:
        """How the offer ended; None while it runs. A fixed-price offer never ends in a tie."""
        if not self.is_over:
            return None
        buyer = self.buyer
        return AuctionResult(
            winner_id=buyer, winning_bid=self.winning_bid, tied_ids=[] if buyer is None else [buyer]
        )

    def check_buy(self, participant_id: str) -> None:
        """Raise :class:`IllegalActionError` unless ``participant_id`` may buy now.

        Codes, in the order checked: ``not-participant``, ``auction-over``, ``already-passed``,
        ``not-your-turn-to-bid``.
        """
        require_participant(self.participants, participant_id)
        if self.is_over:
            raise IllegalActionError("auction-over", "the offer is over")
        if any(entry.participant_id == participant_id for entry in self.history):
            raise IllegalActionError("already-passed", f"{participant_id!r} passed on this offer")
        to_act = self.to_act
        if participant_id != to_act:
            raise IllegalActionError(
                "not-your-turn-to-bid", f"it is {to_act!r}'s turn to answer, not {participant_id!r}'s"
            )

    def buy(self, participant_id: str) -> None:
        """Buy at the price (checked as :meth:`check_buy`); the offer is over."""
        self.check_buy(participant_id)
        self.history.append(AuctionEntry(participant_id=participant_id, amount=self.price))

    def check_pass(self, participant_id: str) -> None:
        """Raise :class:`IllegalActionError` unless ``participant_id`` may pass (as :meth:`check_buy`)."""
        self.check_buy(participant_id)

    def pass_(self, participant_id: str) -> None:
        """Decline the offer (checked as :meth:`check_pass`)."""
        self.check_pass(participant_id)
        self.history.append(AuctionEntry(participant_id=participant_id))
