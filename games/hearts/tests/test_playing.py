"""Playing: the first lead, following suit, the first trick, hearts broken, the queen of spades."""

import pytest
from tabletop import IllegalActionError
from tabletop.testing import GameHarness
from tabletop_hearts.actions.play_card import HydratedPlayCard
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import HydratedHeartsGameState

from .conftest import Arrange, cards

Harness = GameHarness[HydratedHeartsGameState, HeartsConfig]

# One suit each: p1 every club, p2 every diamond, p3 every heart, p4 every spade.
SUITED = {
    "p1": "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
    "p2": "2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",
    "p3": "2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "p4": "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
}


def play(harness: Harness, seat: str, code: str) -> HydratedHeartsGameState:
    return harness.play(harness.action(HydratedPlayCard, seat, card=cards(code)[0]))


def legal(harness: Harness, seat: str) -> list[str]:
    return [card.code for card in harness.state.legal_plays(seat)]


def refused(harness: Harness, seat: str, code: str) -> str:
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        play(harness, seat, code)
    assert caught.value.path == "card" and harness.state.model_dump_json() == before
    return caught.value.code


@pytest.mark.parametrize(("any_club", "leads"), [(False, ["2C"]), (True, ["2C", "5C", "KC"])])
def test_the_holder_of_the_two_of_clubs_leads_it(arrange: Arrange, any_club: bool, leads: list[str]) -> None:
    harness = arrange({"p2": "2C 5C KC 3H"}, can_lead_any_club=any_club)
    assert harness.state.active_player_ids == ["p2"]
    assert legal(harness, "p2") == leads
    if not any_club:
        assert refused(harness, "p2", "5C") == "must-lead-two-of-clubs"


def test_you_must_follow_suit_when_you_can(arrange: Arrange) -> None:
    harness = arrange({"p1": "2C", "p2": "9C 4D QS"})
    play(harness, "p1", "2C")
    assert [code for code in legal(harness, "p2") if code.endswith("C")] == legal(harness, "p2")
    assert refused(harness, "p2", "4D") == "must-follow-suit"
    assert refused(harness, "p2", "3C") == "card-not-in-hand"


@pytest.mark.parametrize(("no_points", "p3_may"), [(True, ["2D"]), (False, ["2D", "5H", "QS"])])
def test_no_points_on_the_first_trick(arrange: Arrange, no_points: bool, p3_may: list[str]) -> None:
    hands = {
        "p1": "2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC",
        "p3": "2D 5H QS 2S 3S 4S 6S 7S 8S 9S 10S JS KS",
    }
    harness = arrange(hands, no_pts_on_first_trick=no_points)
    play(harness, "p1", "2C")
    play(harness, "p2", legal(harness, "p2")[0])
    assert {"2D", "5H", "QS"} & set(legal(harness, "p3")) == set(p3_may)
    if no_points:
        assert refused(harness, "p3", "5H") == "no-points-on-first-trick"
        assert refused(harness, "p3", "QS") == "no-points-on-first-trick"


def test_a_hand_of_nothing_but_points_may_play_them_on_the_first_trick(arrange: Arrange) -> None:
    harness = arrange(SUITED)
    play(harness, "p1", "2C")
    assert len(legal(harness, "p2")) == 13  # diamonds: no points
    play(harness, "p2", "AD")
    assert len(legal(harness, "p3")) == 13  # only hearts: any of them
    play(harness, "p3", "AH")
    assert "QS" not in legal(harness, "p4") and len(legal(harness, "p4")) == 12
    state = play(harness, "p4", "AS")
    trick = state.tricks[0]
    assert (trick.winner_id, trick.points) == ("p1", 1)  # only the led suit wins: p1's two of clubs
    assert state.active_player_ids == ["p1"] and state.player("p1").points == 1
    assert state.hearts_broken


# p2 takes the first trick with the ace of clubs and leads the second, holding clubs and the 4H.
BREAK_HANDS = {
    "p1": "2C 2H 3H 2D 3D 4D 5D 6D 7D 8D 9D 10D JD",
    "p2": "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4H",
    "p3": "QD KD AD 5H 6H 7H 8H 9H 10H JH QH KH AH",
    "p4": "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS",
}


def _first_trick(harness: Harness) -> HydratedHeartsGameState:
    for seat, code in [("p1", "2C"), ("p2", "AC"), ("p3", "QD"), ("p4", "2S")]:
        play(harness, seat, code)
    state = harness.state
    assert (state.tricks[0].winner_id, state.tricks[0].points, state.active_player_ids) == ("p2", 0, ["p2"])
    return state


@pytest.mark.parametrize("must_break", [True, False])
def test_hearts_may_not_be_led_until_broken(arrange: Arrange, must_break: bool) -> None:
    harness = arrange(BREAK_HANDS, must_break_hearts=must_break)
    state = _first_trick(harness)
    assert state.hearts_broken is not must_break
    assert ("4H" in legal(harness, "p2")) is not must_break
    if must_break:
        assert refused(harness, "p2", "4H") == "hearts-not-broken"


def test_a_heart_played_breaks_hearts(arrange: Arrange) -> None:
    harness = arrange(BREAK_HANDS)
    _first_trick(harness)
    play(harness, "p2", "3C")
    play(harness, "p3", "5H")  # void in clubs: a heart
    play(harness, "p4", "3S")
    state = play(harness, "p1", "2H")
    assert state.hearts_broken and state.tricks[-1].points == 2 and state.player("p2").points == 2
    assert "4H" in legal(harness, "p2")


@pytest.mark.parametrize("qs_breaks", [True, False])
def test_the_queen_of_spades_takes_13_points_and_may_break_hearts(arrange: Arrange, qs_breaks: bool) -> None:
    harness = arrange(BREAK_HANDS, qs_breaks_hearts=qs_breaks)
    _first_trick(harness)
    play(harness, "p2", "3C")
    play(harness, "p3", "KD")
    play(harness, "p4", "QS")
    state = play(harness, "p1", "2D")
    assert (state.tricks[-1].winner_id, state.tricks[-1].points) == ("p2", 13)
    assert state.player("p2").points == 13 and state.hearts_broken is qs_breaks
    assert ("4H" in legal(harness, "p2")) is qs_breaks


@pytest.mark.parametrize("instead", [False, True])
def test_a_hand_of_the_queen_and_hearts_may_lead_a_heart_instead(arrange: Arrange, instead: bool) -> None:
    hands = {"p1": "2C", "p2": "AC QS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH"}
    harness = arrange(hands, can_lead_hearts_instead_of_qs=instead)
    play(harness, "p1", "2C")
    play(harness, "p2", "AC")
    for seat in ("p3", "p4"):
        play(harness, seat, legal(harness, seat)[0])
    state = harness.state
    assert state.tricks[0].winner_id == "p2" and not state.hearts_broken
    hearts = [f"{rank}H" for rank in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"]]
    assert legal(harness, "p2") == ([*hearts, "QS"] if instead else ["QS"])
