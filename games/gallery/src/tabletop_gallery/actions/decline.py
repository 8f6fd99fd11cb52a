"""Decline: do not add a second painting to the double; the next player is asked."""

from typing import Literal, Self

from tabletop import GameAction, HydratedAction, IllegalActionError

from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState


class Decline(GameAction):
    """Decline to pair the double; if everyone declines, its auctioneer takes it for free."""

    type: Literal[ActionType.DECLINE] = ActionType.DECLINE
    """The action tag."""
    player_id: str
    """The player asked."""


class HydratedDecline(Decline, HydratedAction[Decline, HydratedGalleryGameState, GalleryConfig]):
    """Decline's rules: only the player asked now; anyone may decline, holding a pair or not."""

    def check(self, ctx: Ctx) -> None:
        """Code ``not-your-turn``."""
        lot = ctx.state.current_lot()
        if not lot.offered_to or lot.offered_to[0] != self.player_id:
            raise IllegalActionError(
                "not-your-turn", f"{self.player_id!r} is not asked for a second painting"
            )

    def apply(self, ctx: Ctx) -> None:
        ctx.state.current_lot().offered_to.pop(0)

    @classmethod
    def enumerate(cls, state: HydratedGalleryGameState, player_id: str) -> list[Self]:
        lot = state.lot
        if lot is None or not lot.offered_to or lot.offered_to[0] != player_id:
            return []
        return [cls.candidate(state, player_id)]
