"""Rounds: deals, the fifth painting ending a round, ranking and scoring over several rounds."""

from collections.abc import Callable

import pytest
from tabletop.testing import GameHarness
from tabletop_gallery.actions.add_painting import HydratedAddPainting
from tabletop_gallery.actions.decline import HydratedDecline
from tabletop_gallery.actions.passing import HydratedPass
from tabletop_gallery.actions.play_painting import HydratedPlayPainting
from tabletop_gallery.actions.score_round import HydratedScoreRound, rank
from tabletop_gallery.components.paintings import Artist
from tabletop_gallery.definition.states import MachineState
from tabletop_gallery.model.config import GalleryConfig
from tabletop_gallery.model.game_state import HydratedGalleryGameState
from tabletop_gallery.model.invariants import invariants

Harness = GameHarness[HydratedGalleryGameState, GalleryConfig]
MakeHarness = Callable[..., Harness]
Rig = Callable[..., HydratedGalleryGameState]

A, B, C, D, E = Artist.AMARO, Artist.BEXLEY, Artist.CORVO, Artist.DAHL, Artist.ESRA
# Open paintings (sold in one pass round when nobody bids): Amaro 1 6 11, Bexley 13 18 23,
# Corvo 26 31 36, Dahl 40 45 50, Esra 55 60 65 70. Amaro double 5; once-around Amaro 2 7 12.


def sell_free(harness: Harness, player: str, painting: int) -> HydratedGalleryGameState:
    """``player`` plays an open or once-around painting; everyone passes: the auctioneer keeps it for free."""
    state = harness.play(harness.action(HydratedPlayPainting, player, painting_id=painting))
    while state.machine_state in {MachineState.OPEN_BIDDING, MachineState.ONCE_AROUND_BIDDING}:
        state = harness.play(harness.action(HydratedPass, state.active_player_ids[0]))
    return state


@pytest.mark.parametrize(("players", "cards"), [(3, 10), (4, 9), (5, 8)])
def test_round_one_deals_by_player_count_and_the_first_seat_starts(
    make_harness: MakeHarness, players: int, cards: int
) -> None:
    harness = make_harness(players=players)
    state = harness.state
    assert [len(player.hand) for player in state.players] == [cards] * players
    assert len(state.deck) == 70 - players * cards
    assert (state.machine_state, state.active_player_ids, state.round_number) == (
        MachineState.PLAYER_TURN,
        ["p1"],
        1,
    )


def test_the_fifth_painting_of_an_artist_ends_the_round_unsold_and_counts_for_the_ranking(
    harness: Harness, rig: Rig
) -> None:
    rig(harness, hands={"p1": [1, 6, 13], "p2": [11, 26, 18], "p3": [2, 7, 40]})
    for player, painting in [("p1", 1), ("p2", 11), ("p3", 40), ("p1", 6), ("p2", 26), ("p3", 2)]:
        state = sell_free(harness, player, painting)
    assert state.played[A] == 4 and state.active_player_ids == ["p1"]
    state = sell_free(harness, "p1", 13)
    state = sell_free(harness, "p2", 18)
    played = harness.play(harness.action(HydratedPlayPainting, "p3", painting_id=7))  # Amaro's fifth
    assert played.machine_state is MachineState.PLAYER_TURN  # scored, round 2 dealt
    score = harness.last(HydratedScoreRound).metadata
    assert score is not None
    assert score.played == {A: 5, B: 2, C: 1, D: 1, E: 0}
    assert score.ranking == [A, B, C]  # Corvo beats Dahl on a tie: listed first
    assert score.awarded == {A: 30, B: 20, C: 10, D: 0, E: 0}
    # p1 kept 1, 6 (Amaro), 13 (Bexley); p2 11 (Amaro), 26 (Corvo), 18 (Bexley); p3 40 (Dahl), 2 (Amaro)
    assert score.payouts == {"p1": 30 + 30 + 20, "p2": 30 + 10 + 20, "p3": 0 + 30}
    assert 7 in [painting.id for painting in played.discard]
    assert all(not player.bought for player in played.players)
    assert played.round_number == 2 and played.active_player_ids == ["p1"]  # p3 ended it: p1 is next
    assert list(invariants(played)) == []


def test_a_doubles_second_painting_can_be_the_fifth_and_neither_is_sold(harness: Harness, rig: Rig) -> None:
    rig(harness, hands={"p1": [1, 6, 5], "p2": [11, 13], "p3": [2, 7]})
    for player, painting in [("p1", 1), ("p2", 11), ("p3", 2)]:
        sell_free(harness, player, painting)
    state = harness.play(harness.action(HydratedPlayPainting, "p1", painting_id=5))  # the fourth: a double
    state = harness.play(harness.action(HydratedDecline, "p1"))
    state = harness.play(harness.action(HydratedDecline, "p2"))
    state = harness.play(harness.action(HydratedAddPainting, "p3", painting_id=7))  # the fifth
    score = harness.last(HydratedScoreRound).metadata
    assert score is not None and score.played[A] == 5
    assert {5, 7} <= {painting.id for painting in state.discard}
    assert state.round_number == 2 and state.active_player_ids == ["p1"]  # p3 became the auctioneer


@pytest.mark.parametrize(
    ("played", "ranking"),
    [
        ({A: 2, B: 3, C: 3, D: 0, E: 1}, [B, C, A]),
        ({A: 0, B: 0, C: 0, D: 4, E: 0}, [D]),
        ({A: 1, B: 1, C: 1, D: 1, E: 1}, [A, B, C]),
        ({A: 0, B: 0, C: 0, D: 0, E: 0}, []),
    ],
)
def test_ranking_most_played_first_ties_to_the_artist_listed_first(
    played: dict[str, int], ranking: list[Artist]
) -> None:
    assert rank(played) == ranking


def test_values_add_up_over_rounds_and_only_ranked_artists_sell(harness: Harness, rig: Rig) -> None:
    state = harness.state
    state.values = [
        {A: 30, B: 20, C: 10, D: 0, E: 0},
        {A: 0, B: 30, C: 20, D: 10, E: 0},
    ]  # as if scored before
    rig(harness, hands={"p1": [1, 6], "p2": [13, 40], "p3": [26, 18]})
    for player, painting in [("p1", 1), ("p2", 13), ("p3", 26), ("p1", 6), ("p2", 40), ("p3", 18)]:
        sell_free(harness, player, painting)
    # Every hand is now empty: the round ends. Played: Amaro 2, Bexley 2, Corvo 1, Dahl 1.
    score = harness.last(HydratedScoreRound).metadata
    assert score is not None
    assert score.ranking == [A, B, C]
    assert score.prices == {
        A: 30 + 0 + 30,
        B: 20 + 30 + 20,
        C: 10 + 20 + 10,
        D: 0,
        E: 0,
    }  # Dahl's 10 is not paid
    assert score.payouts == {"p1": 60 + 60, "p2": 70 + 0, "p3": 40 + 70}


def test_a_whole_round_with_empty_hands_ends_without_a_fifth_painting(
    make_harness: MakeHarness, rig: Rig
) -> None:
    harness = make_harness(players=3)
    rig(harness, hands={"p1": [1], "p2": [13], "p3": []})
    sell_free(harness, "p1", 1)
    state = sell_free(harness, "p2", 13)
    assert state.round_number == 2  # hands ran out: round 1 scored, round 2 dealt
    assert [len(player.hand) for player in state.players] == [6, 6, 6]
    assert state.active_player_ids == ["p3"]  # turn order carried over from p2


def test_the_game_ends_after_round_four_and_the_richest_win(make_harness: MakeHarness, rig: Rig) -> None:
    from tabletop.components import Round

    harness = make_harness(players=3)
    state = harness.state
    state.values = [dict.fromkeys(Artist, 0) for _ in range(3)]
    state.rounds.past_rounds = [Round(number=n, start_index=0, end_index=0) for n in (1, 2, 3)]
    state.rounds.round_count = 4
    state.rounds.current_round = Round(number=4, start_index=0)
    rig(harness, hands={"p1": [1], "p2": [], "p3": []}, money={"p1": 90, "p2": 120, "p3": 120})
    assert list(invariants(state)) == []
    state = sell_free(harness, "p1", 1)  # the last painting: round 4 is scored, Amaro sells for 30
    assert state.machine_state is MachineState.GAME_OVER
    assert [player.money for player in state.players] == [120, 120, 120]
    assert (state.result, state.winning_player_ids) == ("win", ["p1", "p2", "p3"])  # ties share the win
    assert state.active_player_ids == []
