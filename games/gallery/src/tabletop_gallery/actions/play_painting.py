"""PlayPainting: the player on turn puts a painting from their hand up for auction."""

from typing import Literal, Self

from pydantic import Field, JsonValue
from tabletop import Game, GameAction, HydratedAction, IllegalActionError, Model

from tabletop_gallery.components.paintings import Painting, gallery_deck
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, GalleryGameState, HydratedGalleryGameState, put_up


class PlayPaintingMetadata(Model):
    """What a PlayPainting did; public."""

    painting: Painting
    """The painting put up, now shown to everyone."""
    ends_round: bool
    """True if it was the fifth of its artist this round: the round ends and it is not sold."""


class PlayPainting(GameAction):
    """Put a painting from your hand up for auction under the kind printed on it."""

    type: Literal[ActionType.PLAY_PAINTING] = ActionType.PLAY_PAINTING
    """The action tag."""
    player_id: str
    """The player on turn: the auctioneer."""
    painting_id: int = Field(ge=1, le=70)
    """The number of a painting in the player's hand."""
    metadata: PlayPaintingMetadata | None = None
    """Set by the engine when the action is applied."""


def painting_in_hand(state: GalleryGameState, player_id: str, painting_id: int) -> Painting:
    """The painting numbered ``painting_id`` in the player's hand.

    Raises:
        IllegalActionError: ``not-in-hand`` (path ``painting_id``).
    """
    for painting in state.player(player_id).hand:
        if painting.id == painting_id:
            return painting
    raise IllegalActionError("not-in-hand", f"painting {painting_id} is not in your hand", path="painting_id")


class HydratedPlayPainting(
    PlayPainting, HydratedAction[PlayPainting, HydratedGalleryGameState, GalleryConfig]
):
    """PlayPainting's rules: any painting in hand; the fifth of its artist this round ends the round."""

    def check(self, ctx: Ctx) -> None:
        """Code ``not-in-hand``."""
        painting_in_hand(ctx.state, self.player_id, self.painting_id)

    def apply(self, ctx: Ctx) -> None:
        painting = painting_in_hand(ctx.state, self.player_id, self.painting_id)
        ends_round = put_up(ctx.state, self.player_id, painting)
        self.metadata = PlayPaintingMetadata(painting=painting, ends_round=ends_round)

    @classmethod
    def enumerate(cls, state: HydratedGalleryGameState, player_id: str) -> list[Self]:
        """One candidate per painting in the hand."""
        return [cls.candidate(state, player_id, painting_id=p.id) for p in state.player(player_id).hand]

    @classmethod
    def action_space(cls, game: Game[GalleryConfig]) -> list[dict[str, JsonValue]]:
        """Every painting: ``[{"painting_id": 1}, ..., {"painting_id": 70}]``."""
        return [{"painting_id": painting.id} for painting in gallery_deck()]
