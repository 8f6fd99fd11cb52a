"""AddPainting: pair a double with a second painting of its artist and auction the pair."""

from typing import Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError, Model

from tabletop_gallery.actions.play_painting import painting_in_hand
from tabletop_gallery.components.paintings import AuctionKind, Painting, gallery_deck
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState, put_up


class AddPaintingMetadata(Model):
    """What an AddPainting did; public."""

    painting: Painting
    """The second painting, now shown to everyone; the pair is sold under its kind."""
    previous_auctioneer_id: str
    """Who played the double; the adding player is the pair's auctioneer from now on."""
    ends_round: bool
    """True if it was the fifth of its artist this round: the round ends and neither is sold."""


class AddPainting(GameAction):
    """Add a second painting of the double's artist (not a double) and become the pair's auctioneer."""

    type: Literal[ActionType.ADD_PAINTING] = ActionType.ADD_PAINTING
    """The action tag."""
    player_id: str
    """The player asked: the double's auctioneer first, then the others from their left."""
    painting_id: int = Field(ge=1, le=70)
    """The number of a painting in the player's hand: the double's artist, not a double."""
    metadata: AddPaintingMetadata | None = None
    """Set by the engine when the action is applied."""


class HydratedAddPainting(AddPainting, HydratedAction[AddPainting, HydratedGalleryGameState, GalleryConfig]):
    """AddPainting's rules: the player asked, a painting in hand, same artist, not a double."""

    def check(self, ctx: Ctx) -> None:
        """``not-your-turn``, at ``painting_id`` ``not-in-hand``, ``wrong-artist``, ``double-not-allowed``."""
        state = ctx.state
        lot = state.current_lot()
        if not lot.offered_to or lot.offered_to[0] != self.player_id:
            raise IllegalActionError(
                "not-your-turn", f"{self.player_id!r} is not asked for a second painting"
            )
        painting = painting_in_hand(state, self.player_id, self.painting_id)
        if painting.artist != lot.paintings[0].artist:
            msg = f"the double is by {lot.paintings[0].artist}, not {painting.artist}"
            raise IllegalActionError("wrong-artist", msg, path="painting_id")
        if painting.kind is AuctionKind.DOUBLE:
            raise IllegalActionError(
                "double-not-allowed", "a double cannot be paired with a double", path="painting_id"
            )

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        lot = state.current_lot()
        previous = lot.auctioneer_id
        painting = painting_in_hand(state, self.player_id, self.painting_id)
        if self.player_id != previous:  # play goes on from the new auctioneer
            ctx.turns = ctx.turns.started(self.player_id, state.action_count)
        ends_round = put_up(state, self.player_id, painting)
        self.metadata = AddPaintingMetadata(
            painting=painting, previous_auctioneer_id=previous, ends_round=ends_round
        )

    @classmethod
    def enumerate(cls, state: HydratedGalleryGameState, player_id: str) -> list[Self]:
        """One candidate per painting in hand of the double's artist that is not a double."""
        lot = state.lot
        if lot is None or not lot.offered_to or lot.offered_to[0] != player_id:
            return []
        artist = lot.paintings[0].artist
        return [
            cls.candidate(state, player_id, painting_id=painting.id)
            for painting in state.player(player_id).hand
            if painting.artist == artist and painting.kind is not AuctionKind.DOUBLE
        ]

    @classmethod
    def action_space(cls, game: Game[GalleryConfig]) -> list[dict[str, JsonValue]]:
        """Every painting that is not a double."""
        return [{"painting_id": p.id} for p in gallery_deck() if p.kind is not AuctionKind.DOUBLE]
