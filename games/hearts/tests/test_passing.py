"""Passing: the direction turns with the deal; all four pass three cards at once, hidden until they land."""

import pytest
from pydantic import ValidationError
from tabletop import IllegalActionError
from tabletop.testing import GameHarness
from tabletop.views import SPECTATOR, Perspective, find_leaks, project, project_action
from tabletop_hearts.actions.exchange_passes import HydratedExchangePasses
from tabletop_hearts.actions.pass_cards import HydratedPassCards
from tabletop_hearts.components.cards import PassDirection
from tabletop_hearts.definition.states import MachineState
from tabletop_hearts.model.config import HeartsConfig
from tabletop_hearts.model.game_state import HydratedHeartsGameState

from .conftest import Arrange, cards

Harness = GameHarness[HydratedHeartsGameState, HeartsConfig]
SEATS = ["p1", "p2", "p3", "p4"]


@pytest.mark.parametrize(
    ("number", "direction"),
    [
        (1, PassDirection.LEFT),
        (2, PassDirection.RIGHT),
        (3, PassDirection.ACROSS),
        (4, PassDirection.NONE),
        (5, PassDirection.LEFT),
    ],
)
def test_the_direction_turns_with_the_deal_number(number: int, direction: PassDirection) -> None:
    assert PassDirection.for_deal(number, pass_cards=True) is direction
    assert PassDirection.for_deal(number, pass_cards=False) is PassDirection.NONE


def test_the_first_deal_opens_a_simultaneous_pass_to_the_left(harness: Harness) -> None:
    state = harness.state
    assert state.machine_state == MachineState.PASSING and state.pass_direction is PassDirection.LEFT
    assert state.active_player_ids == SEATS and state.simultaneous_group is not None
    assert all(len(player.hand) == 13 for player in state.players)


def test_without_pass_cards_the_deal_goes_straight_to_play(arrange: Arrange) -> None:
    harness = arrange({"p3": "2C"})
    assert harness.state.machine_state == MachineState.PLAYING
    assert harness.state.pass_direction is PassDirection.NONE
    assert harness.state.active_player_ids == ["p3"]


def _pass_all(harness: Harness) -> dict[str, list[str]]:
    chosen = {player.player_id: [card.code for card in player.hand[:3]] for player in harness.state.players}
    for seat in SEATS:
        harness.play(harness.action(HydratedPassCards, seat, cards=cards(" ".join(chosen[seat]))))
    return chosen


@pytest.mark.parametrize(
    ("direction", "receivers"),
    [
        (PassDirection.LEFT, {"p1": "p2", "p2": "p3", "p3": "p4", "p4": "p1"}),
        (PassDirection.RIGHT, {"p1": "p4", "p2": "p1", "p3": "p2", "p4": "p3"}),
        (PassDirection.ACROSS, {"p1": "p3", "p2": "p4", "p3": "p1", "p4": "p2"}),
    ],
)
def test_every_pass_lands_with_its_receiver(
    harness: Harness, direction: PassDirection, receivers: dict[str, str]
) -> None:
    ctx = harness.context()
    ctx.state.pass_direction = direction
    harness.state = ctx.state
    before = {player.player_id: {card.code for card in player.hand} for player in harness.state.players}
    chosen = _pass_all(harness)
    state = harness.state
    assert isinstance(harness.log[-1], HydratedExchangePasses)
    assert state.machine_state == MachineState.PLAYING and state.simultaneous_group is None
    for passer, receiver in receivers.items():
        hand = {card.code for card in state.player(receiver).hand}
        assert set(chosen[passer]) <= hand
        assert [card.code for card in state.player(receiver).received] == chosen[passer]
        assert hand == (before[receiver] - set(chosen[receiver])) | set(chosen[passer])
    assert state.active_player_ids == [state.holder_of(cards("2C")[0])]


def test_a_pass_stays_in_the_hand_and_hidden_until_all_four_are_in(harness: Harness) -> None:
    p1 = harness.state.player("p1")
    trio = p1.hand[:3]
    harness.play(harness.action(HydratedPassCards, "p1", cards=trio))
    action = harness.last(HydratedPassCards)
    state = harness.state
    assert state.player("p1").passed == trio and state.player("p1").has_passed
    assert len(state.player("p1").hand) == 13 and state.machine_state == MachineState.PASSING
    assert harness.legal_actions("p1") == [] and len(harness.legal_actions("p2")) == 286
    seats: list[Perspective] = ["p2", "p3", "p4", SPECTATOR]
    for seat in seats:
        assert find_leaks(state, project(state, seat).model_dump_json(), seat) == []
        assert project_action(action, seat).cards is None
    assert project(state, "p2").model_dump(mode="json")["players"][0]["has_passed"] is True
    assert project_action(action, "p1").cards == trio


@pytest.mark.parametrize(
    ("picks", "code", "path"),
    [
        ("first three", "already-passed", None),
        ("2C 2C 3C", "duplicate-card", "cards"),
        ("held held missing", "card-not-in-hand", "cards.2"),
    ],
)
def test_a_bad_pass_is_refused_and_changes_nothing(
    harness: Harness, picks: str, code: str, path: str | None
) -> None:
    hand = harness.state.player("p1").hand
    missing = next(card for card in harness.state.player("p2").hand)
    if picks == "first three":
        harness.play(harness.action(HydratedPassCards, "p1", cards=hand[:3]))
        trio = hand[3:6]
    elif picks == "held held missing":
        trio = [hand[0], hand[1], missing]
    else:
        trio = [hand[0], hand[0], hand[1]]
    before = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.run(harness.action(HydratedPassCards, "p1", cards=trio))
    assert caught.value.code == code and caught.value.path == path
    assert harness.state.model_dump_json() == before


@pytest.mark.parametrize("count", [2, 4])
def test_a_pass_is_exactly_three_cards(harness: Harness, count: int) -> None:
    with pytest.raises(ValidationError):
        harness.action(HydratedPassCards, "p1", cards=harness.state.player("p1").hand[:count])
