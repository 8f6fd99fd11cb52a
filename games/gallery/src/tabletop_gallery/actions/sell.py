"""Sell: the game hands the lot to its buyer, who pays the auctioneer (or the bank: their own lot)."""

from typing import Literal

from pydantic import Field
from tabletop import GameAction, HydratedAction, IllegalActionError, Model

from tabletop_gallery.components.paintings import Artist, AuctionKind, Painting
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState


class SellMetadata(Model):
    """One sale, as the log tells it ("Ann bought Corvo for 23 from Bob"); public."""

    buyer_id: str
    """Who got the lot."""
    seller_id: str
    """The auctioneer."""
    artist: Artist
    """The lot's artist."""
    kind: AuctionKind
    """The auction kind it was sold under."""
    paintings: list[Painting]
    """The painting, or a double's pair."""
    price: int = Field(ge=0)
    """What the buyer paid (0: nobody bid, the auctioneer took it for free)."""
    paid_to_bank: bool
    """True if the buyer was the auctioneer: they paid the bank, not themselves."""


class Sell(GameAction):
    """A system action: the auction is over; the lot goes to its buyer for the price."""

    system_only = True

    type: Literal[ActionType.SELL] = ActionType.SELL
    """The action tag."""
    buyer_id: str | None = None
    """Who gets the lot: the winner, or the auctioneer if nobody bid; the game always sets it."""
    price: int = Field(default=0, ge=0)
    """What the buyer pays."""
    metadata: SellMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedSell(Sell, HydratedAction[Sell, HydratedGalleryGameState, GalleryConfig]):
    """Sell's rules: the buyer can pay; money and paintings change hands, the block is cleared."""

    @property
    def buyer(self) -> str:
        """Who gets the lot.

        Raises:
            IllegalActionError: ``buyer_id`` is not set (code ``missing-field``).
        """
        if self.buyer_id is None:
            raise IllegalActionError("missing-field", "Sell names its buyer", path="buyer_id")
        return self.buyer_id

    def check(self, ctx: Ctx) -> None:
        """Codes ``missing-field``, ``unknown-player`` (path ``buyer_id``), ``not-enough-money``."""
        state = ctx.state
        state.current_lot()
        if self.buyer not in {player.player_id for player in state.players}:
            raise IllegalActionError("unknown-player", f"no player {self.buyer_id!r}", path="buyer_id")
        if state.player(self.buyer).money < self.price:
            raise IllegalActionError("not-enough-money", "the buyer cannot pay", path="price")

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        lot = state.current_lot()
        buyer = state.player(self.buyer)
        buyer.money -= self.price
        to_bank = self.buyer == lot.auctioneer_id
        if to_bank:
            state.bank_received += self.price
        else:
            state.player(lot.auctioneer_id).money += self.price
        buyer.bought.extend(lot.paintings)
        self.metadata = SellMetadata(
            buyer_id=self.buyer,
            seller_id=lot.auctioneer_id,
            artist=lot.paintings[0].artist,
            kind=lot.kind,
            paintings=list(lot.paintings),
            price=self.price,
            paid_to_bank=to_bank,
        )
        state.lot = None
        state.auction = None


def sell_lot(ctx: Ctx) -> None:
    """Queue the Sell that ends the lot's finished auction (or a double nobody paired).

    The winner buys at their bid. Without a winner the auctioneer gets the lot: at the price
    they set for a fixed-price lot (they must buy it), otherwise for free.
    """
    state = ctx.state
    lot = state.current_lot()
    auction = state.auction
    result = None if auction is None else auction.result
    if result is not None and result.winner_id is not None:
        buyer, price = result.winner_id, result.winning_bid or 0
    else:
        buyer, price = lot.auctioneer_id, lot.price or 0
    ctx.add_system_action(HydratedSell, buyer_id=buyer, price=price)
