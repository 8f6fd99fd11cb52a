"""Setup, options and the state's queries."""

from collections.abc import Callable, Mapping

import pytest
from pydantic import ValidationError
from tabletop import IllegalActionError
from tabletop.testing import ForcedChance, GameHarness
from tabletop_goofspiel.actions.bid import HydratedBid
from tabletop_goofspiel.actions.reveal_prize import HydratedRevealPrize
from tabletop_goofspiel.model.config import GoofspielConfig
from tabletop_goofspiel.model.game_state import HydratedGoofspielGameState

Harness = GameHarness[HydratedGoofspielGameState, GoofspielConfig]
MakeHarness = Callable[..., Harness]
PlayRound = Callable[[Harness, Mapping[str, int]], HydratedGoofspielGameState]


@pytest.mark.parametrize("cards", [1, 2, 5, 13, 52])
def test_setup_deals_every_card_to_each_player_and_reveals_the_first_prize(
    make_harness: MakeHarness, cards: int
) -> None:
    harness = make_harness(cards=cards)
    state = harness.state
    everything = list(range(1, cards + 1))
    assert [player.hand for player in state.players] == [everything, everything]
    assert [player.score for player in state.players] == [0, 0]
    (first,) = harness.log
    assert isinstance(first, HydratedRevealPrize) and state.prize is not None
    assert first.outcome == state.prize  # the start's one chance point
    assert sorted([state.prize, *state.prizes_left]) == everything
    assert state.rounds == [] and state.cards == cards


def _prize_order(harness: Harness) -> list[int]:
    """Play the game out with every bid tied (the order of the prizes does not depend on the bids)."""
    for card in range(1, harness.game.config.cards + 1):
        harness.play(
            harness.action(HydratedBid, "p1", card=card), harness.action(HydratedBid, "p2", card=card)
        )
    return [record.prize for record in harness.state.rounds]


def test_the_prize_order_comes_from_the_seed(make_harness: MakeHarness) -> None:
    def order(seed: int) -> list[int]:
        return _prize_order(make_harness(seed=seed))

    assert order(7) == order(7)
    assert len({tuple(order(seed)) for seed in range(10)}) > 1
    assert all(sorted(order(seed)) == list(range(1, 14)) for seed in range(10))
    assert all(order(seed) != list(range(1, 14)) for seed in range(10))  # drawn, not in order


@pytest.mark.parametrize(
    ("order", "expected"), [("descending", [5, 4, 3, 2, 1]), ("ascending", [1, 2, 3, 4, 5])]
)
def test_a_fixed_points_order_needs_no_chance(
    make_harness: MakeHarness, order: str, expected: list[int]
) -> None:
    harness = make_harness(cards=5, points_order=order, prizes=[])  # a chance point would fail
    assert _prize_order(harness) == expected
    assert not any(isinstance(action, HydratedRevealPrize) for action in harness.log)


def test_forced_prizes_come_up_in_order_and_impossible_ones_are_refused(make_harness: MakeHarness) -> None:
    harness = make_harness(cards=3, prizes=[2, 3, 1])
    assert _prize_order(harness) == [2, 3, 1]
    harness = make_harness(cards=3, prizes=[2])
    harness.chance = ForcedChance([2])  # already up: not among the prizes left
    harness.play(harness.action(HydratedBid, "p1", card=1))
    snapshot = harness.state.model_dump_json()
    with pytest.raises(IllegalActionError) as caught:
        harness.play(harness.action(HydratedBid, "p2", card=1))
    assert (caught.value.code, caught.value.path) == ("impossible-chance-outcome", "outcome")
    assert harness.state.model_dump_json() == snapshot


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
