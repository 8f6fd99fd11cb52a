"""Setup, options and the state's queries."""

from collections.abc import Callable, Mapping

import pytest
from pydantic import ValidationError
from tabletop.testing import GameHarness
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
MakeHarness = Callable[..., Harness]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]


@pytest.mark.parametrize("cards", [1, 2, 5, 13, 52])
def test_setup_deals_every_card_to_each_player_and_shuffles_the_prizes(
    make_harness: MakeHarness, cards: int
) -> None:
    state = make_harness(cards=cards).state
    everything = list(range(1, cards + 1))
    assert [player.hand for player in state.players] == [everything, everything]
    assert [player.score for player in state.players] == [0, 0]
    assert state.prize is not None
    assert sorted([state.prize, *state.prize_deck]) == everything
    assert state.rounds == []


def test_the_prize_order_comes_from_the_seed(make_harness: MakeHarness) -> None:
    def order(seed: int) -> list[int]:
        state = make_harness(seed=seed).state
        assert state.prize is not None
        return [state.prize, *state.prize_deck]

    assert order(7) == order(7)
    assert len({tuple(order(seed)) for seed in range(10)}) > 1
    assert all(order(seed) != list(range(1, 14)) for seed in range(10))  # shuffled, not dealt in order


def test_the_default_game_has_thirteen_cards() -> None:
    assert GoofspielConfig().cards == 13


@pytest.mark.parametrize("cards", [0, -1, 53])
def test_the_number_of_cards_is_bounded(cards: int) -> None:
    with pytest.raises(ValidationError):
        GoofspielConfig(cards=cards)


def test_round_number_and_discarded_follow_the_rounds(harness: Harness, play_round: PlayRound) -> None:
    assert (harness.state.round_number, harness.state.discarded) == (1, [])
    tied_prize = harness.state.prize
    state = play_round(harness, {"p1": 4, "p2": 4})
    assert (state.round_number, state.discarded) == (2, [tied_prize])
    play_round(harness, {"p1": 5, "p2": 6})
    assert (harness.state.round_number, harness.state.discarded) == (3, [tied_prize])


def test_current_auction_fails_clearly_between_rounds(harness: Harness) -> None:
    state = harness.engine.copy_state(harness.state)
    state.auction = None
    with pytest.raises(ValueError, match="no prize"):
        state.current_auction()


@pytest.mark.parametrize(("scores", "leaders"), [((3, 1), ["p1"]), ((1, 3), ["p2"]), ((2, 2), ["p1", "p2"])])
def test_leaders_are_the_players_with_the_highest_score(
    harness: Harness, scores: tuple[int, int], leaders: list[str]
) -> None:
    state = harness.engine.copy_state(harness.state)
    state.player("p1").score, state.player("p2").score = scores
    assert state.leaders() == leaders


def test_the_state_round_trips_through_json_with_the_auction_hydrated(
    harness: Harness, play_round: PlayRound
) -> None:
    from tabletop.components import HydratedSealedBidAuction, SealedBidAuction

    play_round(harness, {"p1": 3, "p2": 9})
    play_round(harness, {"p2": 1})
    raw = harness.state.model_dump_json()
    back = HydratedGoofspielGameState.hydrate(raw)
    assert isinstance(back.auction, HydratedSealedBidAuction)
    assert back.current_auction().bid_of("p2") == 1
    assert back.model_dump_json() == raw
    assert type(back.dehydrate().auction) is SealedBidAuction
