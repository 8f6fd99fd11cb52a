"""Gallery's evaluator: how well each player stands in an unfinished game, for search bots' short rollouts."""

import math

from tabletop_gallery.actions.score_round import rank
from tabletop_gallery.components.paintings import Artist
from tabletop_gallery.components.rules import AWARDS
from tabletop_gallery.model.game_state import GalleryGameState

SCALE = 25.0
"""Money by which a lead makes a win about 73% likely (the logistic's scale)."""


def worth(state: GalleryGameState) -> dict[str, float]:
    """Each player's money plus what their paintings of this round would sell for if it ended now."""
    ranking = rank(state.played)
    prices = {
        artist: sum(awarded[artist] for awarded in state.values) + AWARDS[ranking.index(artist)]
        if artist in ranking
        else 0
        for artist in Artist
    }
    return {
        player.player_id: player.money + sum(prices[painting.artist] for painting in player.bought)
        for player in state.players
    }


def evaluate(state: GalleryGameState) -> dict[str, float]:
    """Each player's chance to win, estimated from their lead over the best of the others.

    A logistic of (their worth - the best other worth) / :data:`SCALE`: 0.5 when level. Used
    by ``MctsBot`` to score a rollout it cut short; it reads the full state (a sampled world).
    """
    totals = worth(state)
    estimate: dict[str, float] = {}
    for player_id, total in totals.items():
        best_other = max((value for other, value in totals.items() if other != player_id), default=total)
        estimate[player_id] = 1.0 / (1.0 + math.exp(-(total - best_other) / SCALE))
    return estimate
