"""SealBid: bid in secret in a sealed auction; the bids show when all are in."""

from typing import Annotated, Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError
from tabletop.components import HydratedSealedBidAuction
from tabletop.views import OwnerOnly

from tabletop_gallery.actions.bid import require_money
from tabletop_gallery.components.rules import MAX_BID, ladder
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState


def sealed(state: HydratedGalleryGameState) -> HydratedSealedBidAuction:
    """The running sealed auction.

    Raises:
        IllegalActionError: ``wrong-auction``: no sealed auction runs.
    """
    auction = state.auction
    if not isinstance(auction, HydratedSealedBidAuction):
        raise IllegalActionError("wrong-auction", "no sealed auction runs")
    return auction


class SealBid(GameAction):
    """Seal your bid for the lot: 0 (no bid) up to your money; hidden from the others until all are in."""

    type: Literal[ActionType.SEAL_BID] = ActionType.SEAL_BID
    """The action tag."""
    player_id: str
    """The bidder; every player bids once, in any order."""
    amount: Annotated[int, OwnerOnly()] = Field(ge=0, le=MAX_BID)
    """The amount; 0 means no bid. Owner-only: RevealBids shows every bid once all are in."""


class HydratedSealBid(SealBid, HydratedAction[SealBid, HydratedGalleryGameState, GalleryConfig]):
    """SealBid's rules: once per auction, at most the bidder's money."""

    def check(self, ctx: Ctx) -> None:
        """Codes: ``wrong-auction``, the auction's (``already-bid``, ...), ``not-enough-money``."""
        sealed(ctx.state).check_bid(self.player_id, self.amount)
        require_money(ctx.state, self.player_id, self.amount)

    def apply(self, ctx: Ctx) -> None:
        sealed(ctx.state).bid(self.player_id, self.amount)

    @classmethod
    def enumerate(cls, state: HydratedGalleryGameState, player_id: str) -> list[Self]:
        """The bid ladder from 0 (no bid) to all-in, unless the player has bid."""
        auction = state.auction
        if not isinstance(auction, HydratedSealedBidAuction) or auction.has_bid(player_id):
            return []
        amounts = ladder(0, min(state.player(player_id).money, MAX_BID))
        return [cls.candidate(state, player_id, amount=amount) for amount in amounts]

    @classmethod
    def action_space(cls, game: Game[GalleryConfig]) -> list[dict[str, JsonValue]]:
        """Every amount: ``[{"amount": 0}, ..., {"amount": MAX_BID}]``."""
        return [{"amount": amount} for amount in range(MAX_BID + 1)]
