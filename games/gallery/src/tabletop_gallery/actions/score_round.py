"""ScoreRound: the game ranks the artists, raises their values and buys the round's paintings."""

from collections.abc import Mapping
from typing import Literal

from pydantic import Field
from tabletop import GameAction, HydratedAction, Model

from tabletop_gallery.components.paintings import Artist
from tabletop_gallery.components.rules import AWARDS
from tabletop_gallery.definition.actions import ActionType
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import Ctx, HydratedGalleryGameState


class ScoreRoundMetadata(Model):
    """How a round was scored; public."""

    round: int = Field(ge=1)
    """The round that ended."""
    played: dict[str, int]
    """Paintings of each artist played this round."""
    ranking: list[Artist]
    """The top artists, first to third (fewer if fewer artists were played)."""
    awarded: dict[str, int]
    """The value each artist was given this round (30, 20, 10 or 0)."""
    prices: dict[str, int]
    """What the bank paid for each painting of an artist this round (0: worthless)."""
    payouts: dict[str, int]
    """What the bank paid each player, by player id, in seating order."""


class ScoreRound(GameAction):
    """A system action: score the round that just ended."""

    system_only = True

    type: Literal[ActionType.SCORE_ROUND] = ActionType.SCORE_ROUND
    """The action tag."""
    metadata: ScoreRoundMetadata | None = None
    """Set by the engine when the action is applied."""


def rank(played: Mapping[str, int]) -> list[Artist]:
    """The artists played, most paintings first, ties to the artist listed first; at most three."""
    order = list(Artist)
    ranked = sorted(
        (artist for artist in order if played[artist] > 0), key=lambda a: (-played[a], order.index(a))
    )
    return ranked[: len(AWARDS)]


class HydratedScoreRound(ScoreRound, HydratedAction[ScoreRound, HydratedGalleryGameState, GalleryConfig]):
    """ScoreRound's rules: the top three gain 30, 20, 10; their paintings sell for all their values so far."""

    def apply(self, ctx: Ctx) -> None:
        state = ctx.state
        ranking = rank(state.played)
        awarded = dict.fromkeys((artist.value for artist in Artist), 0)
        for artist, award in zip(ranking, AWARDS, strict=False):
            awarded[artist] = award
        state.values.append(awarded)
        prices = {artist.value: state.value_of(artist) if artist in ranking else 0 for artist in Artist}
        payouts: dict[str, int] = {}
        for player in state.players:
            payout = sum(prices[painting.artist] for painting in player.bought)
            player.money += payout
            payouts[player.player_id] = payout
            state.discard.extend(player.bought)
            player.bought = []
        state.bank_paid += sum(payouts.values())
        self.metadata = ScoreRoundMetadata(
            round=state.round_number,
            played=dict(state.played),
            ranking=ranking,
            awarded=awarded,
            prices=prices,
            payouts=payouts,
        )
        state.played = dict.fromkeys((artist.value for artist in Artist), 0)
        state.rounds.end_round(state.action_count)
