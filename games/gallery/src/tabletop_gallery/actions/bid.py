"""Bid: raise the high bid in an open or once-around auction (never above your money)."""

from typing import Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError
from tabletop.components import HydratedOnceAroundAuction, HydratedOpenAuction

from tabletop_gallery.components.rules import MAX_BID, ladder
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, GalleryGameState, HydratedGalleryGameState


class Bid(GameAction):
    """Bid for the lot in an open or once-around auction: more than the high bid, at most your money."""

    type: Literal[ActionType.BID] = ActionType.BID
    """The action tag."""
    player_id: str
    """The bidder: the participant whose turn it is."""
    amount: int = Field(ge=1, le=MAX_BID)
    """The amount bid; public."""


def require_money(state: GalleryGameState, player_id: str, amount: int, *, path: str = "amount") -> None:
    """Raise ``not-enough-money`` (at ``path``) if the player holds less than ``amount``.

    The message does not say how much the player holds: it may reach others (an error is shown
    to the one who sent the action, but the rule is that money is secret).
    """
    if amount > state.player(player_id).money:
        raise IllegalActionError("not-enough-money", f"you cannot pay {amount}", path=path)


def open_or_once_around(state: HydratedGalleryGameState) -> HydratedOpenAuction | HydratedOnceAroundAuction:
    """The running open or once-around auction.

    Raises:
        IllegalActionError: ``wrong-auction``: no such auction runs.
    """
    auction = state.auction
    if not isinstance(auction, HydratedOpenAuction | HydratedOnceAroundAuction):
        raise IllegalActionError("wrong-auction", "no open or once-around auction runs")
    return auction


class HydratedBid(Bid, HydratedAction[Bid, HydratedGalleryGameState, GalleryConfig]):
    """Bid's rules: the auction's own checks, then the bidder's money."""

    def check(self, ctx: Ctx) -> None:
        """Codes: ``wrong-auction``, the auction's (``bid-too-low``, ...), ``not-enough-money``."""
        open_or_once_around(ctx.state).check_bid(self.player_id, self.amount)
        require_money(ctx.state, self.player_id, self.amount)

    def apply(self, ctx: Ctx) -> None:
        open_or_once_around(ctx.state).bid(self.player_id, self.amount)

    @classmethod
    def enumerate(cls, state: HydratedGalleryGameState, player_id: str) -> list[Self]:
        """The bid ladder (``components.rules.ladder``) from the lowest bid to all-in."""
        auction = state.auction
        if (
            not isinstance(auction, HydratedOpenAuction | HydratedOnceAroundAuction)
            or auction.to_act != player_id
        ):
            return []
        amounts = ladder(auction.minimum_next_bid, min(state.player(player_id).money, MAX_BID))
        return [cls.candidate(state, player_id, amount=amount) for amount in amounts]

    @classmethod
    def action_space(cls, game: Game[GalleryConfig]) -> list[dict[str, JsonValue]]:
        """Every amount: ``[{"amount": 1}, ..., {"amount": MAX_BID}]``."""
        return [{"amount": amount} for amount in range(1, MAX_BID + 1)]
