"""RevealBids: the game shows every sealed bid once all are in, and sells the lot to the highest."""

from typing import Literal

from pydantic import Field
from tabletop import GameAction, HydratedAction, IllegalActionError, Model
from tabletop.components import HydratedSealedBidAuction

from tabletop_gallery.actions.sell import HydratedSell
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState


class RevealBidsMetadata(Model):
    """Every sealed bid, shown to everyone, and who won; public."""

    bids: dict[str, int]
    """Each participant's bid by player id, in bid order (from the auctioneer's left, the auctioneer last)."""
    winner_id: str | None = None
    """The highest bidder (the first in bid order among equal bids); None if every bid was 0."""
    tie: bool = False
    """True if several participants shared the highest bid."""
    price: int = Field(ge=0)
    """What the winner pays: the highest bid (0 if nobody bid)."""


class RevealBids(GameAction):
    """A system action: reveal the sealed bids and sell the lot."""

    system_only = True

    type: Literal[ActionType.REVEAL_BIDS] = ActionType.REVEAL_BIDS
    """The action tag."""
    metadata: RevealBidsMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedRevealBids(RevealBids, HydratedAction[RevealBids, HydratedGalleryGameState, GalleryConfig]):
    """RevealBids' rules: the highest bid wins (ties: first in bid order); all 0: the auctioneer's, free."""

    def check(self, ctx: Ctx) -> None:
        """Code ``bids-missing``: no sealed auction has every bid in."""
        auction = ctx.state.auction
        if not isinstance(auction, HydratedSealedBidAuction) or not auction.is_over:
            raise IllegalActionError("bids-missing", "there are no complete sealed bids to reveal")

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        auction = state.current_auction()
        assert isinstance(auction, HydratedSealedBidAuction)
        bids = auction.revealed_bids()
        price = auction.winning_bid or 0
        winner = auction.winner if price > 0 else None
        self.metadata = RevealBidsMetadata(
            bids=bids, winner_id=winner, tie=auction.tie and price > 0, price=price
        )
        buyer = state.current_lot().auctioneer_id if winner is None else winner
        ctx.add_system_action(HydratedSell, buyer_id=buyer, price=price)
