"""Buy: take a fixed-price lot at its price."""

from typing import Literal, Self

from tabletop import GameAction, HydratedAction, IllegalActionError
from tabletop.components import HydratedFixedPriceAuction

from tabletop_gallery.actions.bid import require_money
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState


def fixed_price(state: HydratedGalleryGameState) -> HydratedFixedPriceAuction:
    """The running fixed-price offer.

    Raises:
        IllegalActionError: ``wrong-auction``: no fixed-price offer runs.
    """
    auction = state.auction
    if not isinstance(auction, HydratedFixedPriceAuction):
        raise IllegalActionError("wrong-auction", "no fixed-price offer runs")
    return auction


class Buy(GameAction):
    """Buy the lot at the auctioneer's price; the offer ends."""

    type: Literal[ActionType.BUY] = ActionType.BUY
    """The action tag."""
    player_id: str
    """The player asked now (from the auctioneer's left)."""


class HydratedBuy(Buy, HydratedAction[Buy, HydratedGalleryGameState, GalleryConfig]):
    """Buy's rules: your turn to answer, and money to pay."""

    def check(self, ctx: Ctx) -> None:
        """Codes: ``wrong-auction``, the offer's (``not-your-turn-to-bid``, ...), ``not-enough-money``."""
        offer = fixed_price(ctx.state)
        offer.check_buy(self.player_id)
        require_money(ctx.state, self.player_id, offer.price)

    def apply(self, ctx: Ctx) -> None:
        fixed_price(ctx.state).buy(self.player_id)

    @classmethod
    def enumerate(cls, state: HydratedGalleryGameState, player_id: str) -> list[Self]:
        auction = state.auction
        if not isinstance(auction, HydratedFixedPriceAuction) or auction.to_act != player_id:
            return []
        return [cls.candidate(state, player_id)]
