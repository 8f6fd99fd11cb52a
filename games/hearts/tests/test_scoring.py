"""The end of a deal: shooting the moon, the jack of diamonds, taking no trick, the whole game."""

import pytest
from tabletop import GameResult
from tabletop.testing import GameHarness
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import HydratedHeartsGameState, PlayedCard, Trick
from tabletop_hearts.model.scoring import settle_deal
from tabletop_hearts.state_handlers.game_over import GameOver

from .conftest import Arrange, cards

Harness = GameHarness[HydratedHeartsGameState, HeartsConfig]
SEATS = ["p1", "p2", "p3", "p4"]


def _trick(winner: str, codes: str, *, jd_bonus: bool = False) -> Trick:
    from tabletop_hearts.components.cards import card_points

    played = [PlayedCard(player_id=seat, card=card) for seat, card in zip(SEATS, cards(codes), strict=True)]
    return Trick(
        cards=played, winner_id=winner, points=sum(card_points(p.card, jd_bonus=jd_bonus) for p in played)
    )


def _settle(arrange: Arrange, takes: dict[str, list[str]], **options: bool) -> dict[str, int]:
    """Settle a deal whose tricks (four cards each, by code) went to the seats given."""
    harness = arrange(**options)
    ctx = harness.context()
    state = ctx.state
    jd = bool(options.get("jd_bonus", False))
    state.tricks = [_trick(seat, codes, jd_bonus=jd) for seat, tricks in takes.items() for codes in tricks]
    for player in state.players:
        taken = [trick for trick in state.tricks if trick.winner_id == player.player_id]
        player.points = sum(trick.points for trick in taken)
        player.tricks_won = len(taken)
    record = settle_deal(state)
    assert state.deals == [record]
    assert record.points == {player.player_id: player.score for player in state.players}
    return record.points


HEARTS = [f"{rank}H" for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]]
ALL_POINTS = [" ".join(HEARTS[i : i + 4]) for i in (0, 4, 8)] + [f"{HEARTS[12]} QS 2C 3C"]


def test_taking_every_heart_and_the_queen_shoots_the_moon(arrange: Arrange) -> None:
    points = _settle(arrange, {"p3": ALL_POINTS, "p1": ["4C 5C 6C 7C"]})
    assert points == {"p1": 26, "p2": 26, "p3": 0, "p4": 26}


def test_missing_one_heart_is_no_moon(arrange: Arrange) -> None:
    takes = {"p3": ALL_POINTS[1:], "p2": [ALL_POINTS[0]]}
    assert _settle(arrange, takes) == {"p1": 0, "p2": 4, "p3": 22, "p4": 0}


@pytest.mark.parametrize(("jd_bonus", "p1_points"), [(True, -10), (False, 0)])
def test_the_jack_of_diamonds_bonus(arrange: Arrange, jd_bonus: bool, p1_points: int) -> None:
    takes = {"p1": ["JD 2D 3D 4D"], "p2": ALL_POINTS[:2], "p4": ALL_POINTS[2:]}
    points = _settle(arrange, takes, jd_bonus=jd_bonus)
    assert points == {"p1": p1_points, "p2": 8, "p3": 0, "p4": 18}


def test_the_moon_shooter_keeps_the_jack_of_diamonds(arrange: Arrange) -> None:
    points = _settle(arrange, {"p2": [*ALL_POINTS, "JD 2D 3D 4D"]}, jd_bonus=True)
    assert points == {"p1": 26, "p2": -10, "p3": 26, "p4": 26}


@pytest.mark.parametrize(("bonus", "p1_points"), [(True, -5), (False, 0)])
def test_avoiding_every_trick(arrange: Arrange, bonus: bool, p1_points: int) -> None:
    takes = {"p2": ALL_POINTS[:2], "p3": ["2D 3D 4D 5D"], "p4": ALL_POINTS[2:]}
    points = _settle(arrange, takes, avoid_all_tricks_bonus=bonus)
    assert points == {"p1": p1_points, "p2": 8, "p3": 0, "p4": 18}


def test_no_bonus_for_avoiding_tricks_when_someone_shoots_the_moon(arrange: Arrange) -> None:
    points = _settle(arrange, {"p3": ALL_POINTS}, avoid_all_tricks_bonus=True)
    assert points == {"p1": 26, "p2": 26, "p3": 0, "p4": 26}


def test_the_lowest_total_wins_and_ties_share_the_win(harness: Harness) -> None:
    ctx = harness.context()
    for player, score in zip(ctx.state.players, [40, 12, 101, 12], strict=True):
        player.score = score
    GameOver().enter(ctx)
    assert (ctx.state.result, ctx.state.winning_player_ids, ctx.state.active_player_ids) == (
        GameResult.WIN,
        ["p2", "p4"],
        [],
    )


@pytest.mark.parametrize("target", [1, 60])
def test_deals_go_on_until_someone_reaches_the_target(target: int) -> None:
    from tabletop import GameEngine
    from tabletop.bots import RandomBot, playout
    from tabletop.testing import make_game
    from tabletop_hearts import definition

    engine = GameEngine(definition)
    game = make_game(definition, players=4, seed=5, config=HeartsConfig(target_score=target))
    final = list(playout(engine, game, RandomBot(engine, 5), max_actions=20_000))[-1].state
    assert final.machine_state == MachineState.GAME_OVER
    totals = [deal.scores for deal in final.deals]
    assert all(max(scores.values()) < target for scores in totals[:-1])
    assert max(totals[-1].values()) >= target
    assert final.winning_player_ids == final.leaders()
    if target == 1:
        assert len(final.deals) == 1
