"""SetPrice: the auctioneer of a fixed-price lot names its price (one they can pay)."""

from typing import Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError
from tabletop.components import HydratedFixedPriceAuction

from tabletop_gallery.actions.bid import require_money
from tabletop_gallery.components.rules import MAX_BID, ladder
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState


class SetPrice(GameAction):
    """Name the lot's price; the others, from your left, may buy at it, or you must."""

    type: Literal[ActionType.SET_PRICE] = ActionType.SET_PRICE
    """The action tag."""
    player_id: str
    """The lot's auctioneer."""
    price: int = Field(ge=0, le=MAX_BID)
    """The price; public. At most the auctioneer's money, since they must buy if nobody does."""


class HydratedSetPrice(SetPrice, HydratedAction[SetPrice, HydratedGalleryGameState, GalleryConfig]):
    """SetPrice's rules: the auctioneer, once, a price they can pay."""

    def check(self, ctx: Ctx) -> None:
        """Codes ``not-auctioneer``, ``price-set``, ``not-enough-money`` (path ``price``)."""
        lot = ctx.state.current_lot()
        if lot.auctioneer_id != self.player_id:
            raise IllegalActionError("not-auctioneer", f"{lot.auctioneer_id!r} sets the price")
        if lot.price is not None:
            raise IllegalActionError("price-set", "the price is already set")
        require_money(ctx.state, self.player_id, self.price, path="price")

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        lot = state.current_lot()
        lot.price = self.price
        state.auction = HydratedFixedPriceAuction(
            participants=state.bid_order(self.player_id, auctioneer_bids=False), price=self.price
        )

    @classmethod
    def enumerate(cls, state: HydratedGalleryGameState, player_id: str) -> list[Self]:
        """The price ladder from 0 to all the auctioneer's money."""
        lot = state.lot
        if lot is None or lot.auctioneer_id != player_id or lot.price is not None:
            return []
        prices = ladder(0, min(state.player(player_id).money, MAX_BID))
        return [cls.candidate(state, player_id, price=price) for price in prices]

    @classmethod
    def action_space(cls, game: Game[GalleryConfig]) -> list[dict[str, JsonValue]]:
        """Every price: ``[{"price": 0}, ..., {"price": MAX_BID}]``."""
        return [{"price": price} for price in range(MAX_BID + 1)]
