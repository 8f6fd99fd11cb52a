"""The end of a deal: shooting the moon, the bonus for taking no trick, the totals."""

from tabletop_hearts.components.cards import AVOID_ALL_TRICKS_BONUS, JACK_OF_DIAMONDS_POINTS, MOON_POINTS
from tabletop_hearts.model.game_state import DealRecord, HydratedHeartsGameState


def moon_shooter(state: HydratedHeartsGameState) -> str | None:
    """Who took every trick with points other than the jack of diamonds' alone, if one player did.

    As OpenSpiel decides it: every trick whose points are neither 0 nor the jack of diamonds'
    must have gone to the same player (taking the jack is not needed to shoot the moon).
    """
    takers = {trick.winner_id for trick in state.tricks if trick.points not in (0, JACK_OF_DIAMONDS_POINTS)}
    return next(iter(takers)) if len(takers) == 1 else None


def settle_deal(state: HydratedHeartsGameState) -> DealRecord:
    """Settle the finished deal: the moon (0 for the shooter, 26 for each other; the shooter's
    jack of diamonds still counts), else the bonus for taking no trick, then add the points to
    the totals and record the deal."""
    shooter = moon_shooter(state)
    for player in state.players:
        if shooter is not None:
            player.points += -MOON_POINTS if player.player_id == shooter else MOON_POINTS
        elif state.rules.avoid_all_tricks_bonus and player.tricks_won == 0:
            player.points += AVOID_ALL_TRICKS_BONUS
        player.score += player.points
    record = DealRecord(
        number=state.deal_number,
        pass_direction=state.pass_direction,
        points={player.player_id: player.points for player in state.players},
        scores={player.player_id: player.score for player in state.players},
        moon_shooter_id=shooter,
    )
    state.deals.append(record)
    return record
