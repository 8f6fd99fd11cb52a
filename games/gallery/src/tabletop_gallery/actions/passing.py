"""Pass: drop out of an open auction, let a once-around bid go by, or decline a fixed price."""

from typing import Literal, Self

from tabletop import GameAction, HydratedAction, IllegalActionError
from tabletop.components import HydratedFixedPriceAuction, HydratedOnceAroundAuction, HydratedOpenAuction

from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState

Passable = HydratedOpenAuction | HydratedOnceAroundAuction | HydratedFixedPriceAuction


def passable(state: HydratedGalleryGameState) -> Passable:
    """The running auction one may pass in (every kind but sealed).

    Raises:
        IllegalActionError: ``wrong-auction``: no such auction runs.
    """
    auction = state.auction
    if not isinstance(auction, Passable):
        raise IllegalActionError("wrong-auction", "no auction that allows passing runs")
    return auction


class Pass(GameAction):
    """Pass: in an open auction you are out for good; in the others you let your one chance go."""

    type: Literal[ActionType.PASS] = ActionType.PASS
    """The action tag."""
    player_id: str
    """The participant whose turn it is."""


class HydratedPass(Pass, HydratedAction[Pass, HydratedGalleryGameState, GalleryConfig]):
    """Pass's rules: the auction's own (``not-your-turn-to-bid``, ``already-passed``, ...)."""

    def check(self, ctx: Ctx) -> None:
        """Codes: ``wrong-auction``, then the auction's."""
        passable(ctx.state).check_pass(self.player_id)

    def apply(self, ctx: Ctx) -> None:
        passable(ctx.state).pass_(self.player_id)

    @classmethod
    def enumerate(cls, state: HydratedGalleryGameState, player_id: str) -> list[Self]:
        auction = state.auction
        if not isinstance(auction, Passable) or auction.to_act != player_id:
            return []
        return [cls.candidate(state, player_id)]
