"""Backgammon's evaluator: how well each player stands in an unfinished game, for search bots."""

import math

from tabletop_backgammon.components.rules import BAR, POINTS
from tabletop_backgammon.model.game_state import BackgammonGameState

SCALE = 12.0
"""Pips by which a lead in the race makes a win about 73% likely (the logistic's scale)."""


def pips(state: BackgammonGameState) -> dict[str, int]:
    """Each player's pip count: the points their checkers still have to travel to bear off."""
    counts: dict[str, int] = {}
    for seat, player in enumerate(state.players):
        # White (seat 0) bears off past point 24, Black below point 1; the bar is 25 pips out.
        distance = [POINTS - index if seat == 0 else index + 1 for index in range(POINTS)]
        on_points = sum(count * far for count, far in zip(player.points, distance, strict=True))
        counts[player.player_id] = on_points + (BAR + 1) * player.bar
    return counts


def evaluate(state: BackgammonGameState) -> dict[str, float]:
    """Each player's chance to win, a logistic of their lead in the race over :data:`SCALE`.

    0.5 when level. ``MctsBot`` scores a rollout it cut short with it.
    """
    counts = pips(state)
    estimate: dict[str, float] = {}
    for player_id, count in counts.items():
        other = max(value for other, value in counts.items() if other != player_id)
        estimate[player_id] = 1.0 / (1.0 + math.exp(-(other - count) / SCALE))
    return estimate
